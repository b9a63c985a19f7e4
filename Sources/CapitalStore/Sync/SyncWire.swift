/// What `capital sync` and `capital serve` say to each other: JSON bodies over HTTP, every
/// request and answer carrying the protocol's version in the `Capital-Protocol` header.
public enum SyncWire {
    /// The protocol this build speaks. A server answers another version with 400 `protocol`.
    public static let version = 1
    /// The header that carries the version.
    public static let versionHeader = "Capital-Protocol"
    /// The largest request body a server takes (10 MB); a larger one gets 413.
    public static let maxBody = 10 * 1024 * 1024
    /// Change sets per push request and per page of a pull.
    public static let pageSize = 1_000

    /// One line of the canonical ledger, whose SHA-256 devices and server compare: every
    /// (entity, record, group) and its winning value, in that order, tab-separated.
    public static func canonicalLine(entity: String, record: String, group: String, value: String) -> String {
        "\(entity)\t\(record)\t\(group)\t\(value)\n"
    }

    /// `POST /v1/login`.
    public struct Login: Codable, Sendable {
        public let user: String
        public let password: String
        public init(user: String, password: String) {
            self.user = user
            self.password = password
        }
    }

    /// A signed-in device's tokens (the answer to login and to refresh). Times are milliseconds
    /// since 1970.
    public struct Tokens: Codable, Sendable, Equatable {
        public let user: String
        public let access: String
        public let accessExpiresAt: Int64
        public let refresh: String
        public let refreshExpiresAt: Int64
        public init(user: String, access: String, accessExpiresAt: Int64, refresh: String, refreshExpiresAt: Int64) {
            self.user = user
            self.access = access
            self.accessExpiresAt = accessExpiresAt
            self.refresh = refresh
            self.refreshExpiresAt = refreshExpiresAt
        }
    }

    /// `POST /v1/refresh`.
    public struct Refresh: Codable, Sendable {
        public let refresh: String
        public init(refresh: String) { self.refresh = refresh }
    }

    /// `POST /v1/ledgers`.
    public struct NewLedger: Codable, Sendable {
        public let name: String
        public init(name: String) { self.name = name }
    }

    /// A ledger as its member sees it (`GET /v1/ledgers`, `GET /v1/ledgers/ID`).
    public struct Ledger: Codable, Sendable, Equatable {
        public let id: String
        public let name: String
        /// `owner`, `member` or `viewer`.
        public let role: String
        /// The log's last sequence number.
        public let head: Int64
        public init(id: String, name: String, role: String, head: Int64) {
            self.id = id
            self.name = name
            self.role = role
            self.head = head
        }
    }

    /// `POST /v1/ledgers/ID/changes`.
    public struct Push: Codable, Sendable {
        public let sets: [ChangeSet]
        public init(sets: [ChangeSet]) { self.sets = sets }

        /// The JSON of a push of the sets whose JSON is `sets` (as `ChangeSet.body` writes them).
        public static func body(sets: [String]) -> String { "{\"sets\":[" + sets.joined(separator: ",") + "]}" }
    }

    /// The answer to a push: each set's sequence number, in order.
    public struct Pushed: Codable, Sendable {
        public let seqs: [Int64]
        public let head: Int64
        public init(seqs: [Int64], head: Int64) {
            self.seqs = seqs
            self.head = head
        }
    }

    /// `GET /v1/ledgers/ID/changes?after=SEQ&limit=N`: the sets after `after`; `last` is the
    /// sequence number of the last one (`after` when none). On the page that reaches the head,
    /// `digest` is the SHA-256 of the canonical ledger at `head`.
    public struct Page: Codable, Sendable {
        public let sets: [ChangeSet]
        public let last: Int64
        public let head: Int64
        public let digest: String?
        public init(sets: [ChangeSet], last: Int64, head: Int64, digest: String?) {
            self.sets = sets
            self.last = last
            self.head = head
            self.digest = digest
        }
    }

    /// `GET /v1/ledgers/ID/snapshot`: every group's winner at `head`, in the canonical order,
    /// each as an array (`SnapshotEntry`). Devices hand the JSON to `Store.applySnapshot` as it
    /// came.
    public struct Snapshot: Codable, Sendable {
        public let entries: [SnapshotEntry]
        public let head: Int64
        public init(entries: [SnapshotEntry], head: Int64) {
            self.entries = entries
            self.head = head
        }

        /// The JSON of a snapshot whose entries' JSON array is `entries`.
        public static func body(entries: String, head: Int64) -> String { "{\"head\":\(head),\"entries\":\(entries)}" }
    }

    /// `PUT /v1/ledgers/ID/members/USER`.
    public struct Role: Codable, Sendable {
        public let role: String
        public init(role: String) { self.role = role }
    }

    /// A ledger's member.
    public struct Member: Codable, Sendable, Equatable {
        public let user: String
        public let role: String
        public init(user: String, role: String) {
            self.user = user
            self.role = role
        }
    }

    /// A device that wrote to a ledger, and the user it writes for (`GET /v1/ledgers/ID/devices`):
    /// what lets a device say who changed a value.
    public struct Device: Codable, Sendable, Equatable {
        public let device: String
        public let user: String
        public init(device: String, user: String) {
            self.device = device
            self.user = user
        }
    }

    /// An error, as RFC 9457 problem details (`application/problem+json`) with a machine code:
    /// `unauthorized`, `forbidden`, `not_found`, `locked_out`, `protocol`, `malformed`,
    /// `too_large`, `clock_skew`, `id_reused`, `device_seq_reused`, `out_of_order`, `invalid`,
    /// `weak_password`, `exists`.
    public struct Problem: Codable, Sendable, Error, Equatable {
        public let type: String
        public let title: String
        public let status: Int
        public let detail: String
        public let code: String
        /// RFC 9457's `invalid-params`: each query parameter that could not be used, and why.
        public let invalidParams: [InvalidParam]?
        public init(status: Int, code: String, detail: String, invalidParams: [InvalidParam]? = nil) {
            self.type = "about:blank"
            self.title = Self.titles[status] ?? "Error"
            self.status = status
            self.detail = detail
            self.code = code
            self.invalidParams = invalidParams
        }

        enum CodingKeys: String, CodingKey {
            case type, title, status, detail, code
            case invalidParams = "invalid-params"
        }

        /// A parameter by its name, and why it was refused.
        public struct InvalidParam: Codable, Sendable, Equatable {
            public let name: String
            public let reason: String
            public init(name: String, reason: String) { (self.name, self.reason) = (name, reason) }
        }
        static let titles = [
            400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed", 409: "Conflict",
            413: "Content Too Large",
            422: "Unprocessable Content", 429: "Too Many Requests", 500: "Internal Server Error", 503: "Service Unavailable",
        ]
    }
}
