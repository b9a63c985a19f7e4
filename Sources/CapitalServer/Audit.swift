/// One line of the server's audit log: who did what, to whom, in which ledger, when and from
/// where. Sign-ins and their failures, sign-outs, a refresh token used twice, ledgers made,
/// members' roles, and the administrators' and the operator's changes to users. Never a password,
/// a token or an amount.
public struct AuditEvent: Codable, Equatable, Sendable {
    /// Its place in the log (assigned when recorded; 0 before).
    public var id: Int64
    /// Milliseconds since 1970, the server's clock.
    public var at: Int64
    /// The user who acted (for a failed sign-in: the name given), or `operator` for a command run
    /// on the server's machine (`capital serve user …`).
    public var actor: String
    /// An `Action`'s name (text: a newer server's actions read back as they were written).
    public var action: String
    /// The user acted on, when not the actor ("" for none).
    public var subject: String
    /// The ledger concerned ("" for none).
    public var ledger: String
    /// The client's address (`local` for the operator).
    public var address: String
    /// A word or two more: a role, why a sign-in failed.
    public var detail: String

    public init(
        id: Int64 = 0, at: Int64, actor: String, action: Action, subject: String = "", ledger: String = "", address: String,
        detail: String = ""
    ) {
        self.init(id: id, at: at, actor: actor, action: action.rawValue, subject: subject, ledger: ledger, address: address, detail: detail)
    }

    /// An event as a storage read it back.
    init(id: Int64, at: Int64, actor: String, action: String, subject: String, ledger: String, address: String, detail: String) {
        (self.id, self.at, self.actor, self.action) = (id, at, actor, action)
        (self.subject, self.ledger, self.address, self.detail) = (subject, ledger, address, detail)
    }

    /// What happened.
    public enum Action: String, CaseIterable, Sendable {
        case signIn = "sign_in"
        /// `detail`: `password` (a wrong user name or password) or `disabled`. (Attempts refused
        /// while locked out are counted by `/metrics`, not recorded one by one.)
        case signInFailed = "sign_in_failed"
        case signOut = "sign_out"
        /// A rotated refresh token presented again: that sign-in's tokens were revoked.
        case tokenReused = "token_reused"
        case ledgerCreated = "ledger_created"
        /// `subject` given the role `detail` in `ledger`.
        case roleSet = "role_set"
        case memberRemoved = "member_removed"
        case userAdded = "user_added"
        case userDisabled = "user_disabled"
        case userEnabled = "user_enabled"
        case adminGranted = "admin_granted"
        case adminRevoked = "admin_revoked"
        /// The operator set a password (`capital serve user passwd`).
        case passwordSet = "password_set"
        /// An administrator issued a one-time reset token for `subject`.
        case resetIssued = "reset_issued"
        /// `actor` set a new password with a reset token.
        case passwordReset = "password_reset"
    }
}

/// The administration routes' bodies (`/v1/admin/…`, `/v1/password-reset`).
public enum AdminWire {
    /// A user as an administrator sees them.
    public struct User: Codable, Equatable, Sendable {
        public let name: String
        public let admin: Bool
        public let disabled: Bool
        public let createdAt: String
    }

    /// A one-time token that lets `user` choose a new password until `expiresAt` (milliseconds).
    public struct Reset: Codable, Equatable, Sendable {
        public let user: String
        public let token: String
        public let expiresAt: Int64
    }

    /// A password reset: the user, the token an administrator gave them, the new password.
    public struct Redeem: Codable, Equatable, Sendable {
        public let user: String
        public let token: String
        public let password: String

        public init(user: String, token: String, password: String) {
            (self.user, self.token, self.password) = (user, token, password)
        }
    }

    /// A page of the audit log: events after `after` in order; `last` is the id to ask after next.
    public struct Audit: Codable, Equatable, Sendable {
        public let events: [AuditEvent]
        public let last: Int64
    }
}
