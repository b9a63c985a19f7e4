import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// A request's context: Hummingbird's, and the address the connection came from.
public struct ServerContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let remoteAddress: SocketAddress?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }
}

extension SyncServer {
    /// How long an administrator's reset token lets its user choose a new password: 24 hours.
    static let resetLife: Int64 = 86_400_000

    /// Where a request came from: the connection's address, or behind a proxy (`--behind-proxy`)
    /// the last address of `X-Forwarded-For`, the one the proxy itself added.
    func address(_ request: Request, _ context: ServerContext) -> String {
        if behindProxy, let forwarded = request.headers[HTTPField.Name("X-Forwarded-For")!],
            let last = forwarded.split(separator: ",").last?.trimmingCharacters(in: .whitespaces), !last.isEmpty
        {
            return String(last.prefix(64))
        }
        return context.remoteAddress?.ipAddress ?? "-"
    }

    /// Records an event of the audit log; a failure to record is logged, not answered.
    func audit(
        _ action: AuditEvent.Action, by actor: String, subject: String = "", ledger: String = "", detail: String = "", _ request: Request,
        _ context: ServerContext
    ) async {
        // A failed sign-in's name is whatever the client sent: kept to a user name's longest.
        let event = AuditEvent(
            at: now(), actor: String(actor.prefix(64)), action: action, subject: String(subject.prefix(64)), ledger: ledger,
            address: address(request, context), detail: detail)
        do { try await storage.record(event) } catch {
            logger.error("audit: could not record \(action.rawValue): \(String(describing: type(of: error)))")
        }
    }

    /// The signed-in user of `request` when they administer the server; 403 for anyone else.
    func administrator(_ request: Request) async throws -> String {
        let user = try await authenticated(request).user
        guard try await storage.isAdmin(user) else {
            throw Problem(403, "forbidden", "only a server administrator may do that; \(user) is not one")
        }
        return user
    }

    /// `/v1/admin/…` for server administrators, and `/v1/password-reset` for the user holding a reset token.
    func administration(_ router: Router<ServerContext>) {
        router.get("/v1/admin/users") { request, _ in
            _ = try await administrator(request)
            let users = try await storage.users().map {
                AdminWire.User(name: $0.name, admin: $0.admin, disabled: $0.disabled, createdAt: $0.createdAt)
            }
            return try json(users, for: request)
        }
        for (path, disabled) in [("disable", true), ("enable", false)] {
            router.post("/v1/admin/users/:user/\(path)") { request, context in
                let admin = try await administrator(request)
                let user = try parameter(context, "user")
                if disabled, user == admin {
                    throw Problem(409, "self", "\(admin) cannot disable themselves: ask another administrator or the server's operator")
                }
                try await people { try await storage.setDisabled(disabled, user: user) }
                await audit(disabled ? .userDisabled : .userEnabled, by: admin, subject: user, request, context)
                return try json(try await adminUser(user), for: request)
            }
        }
        router.post("/v1/admin/users/:user/reset") { request, context in
            let admin = try await administrator(request)
            let user = try parameter(context, "user")
            let token = Tokens.makeTyped()
            let expires = now() + Self.resetLife
            try await people { try await storage.issueReset(Tokens.digest(token), user: user, expires: expires) }
            await audit(.resetIssued, by: admin, subject: user, request, context)
            return try json(AdminWire.Reset(user: user, token: token, expiresAt: expires), status: .created, for: request)
        }
        router.get("/v1/admin/audit") { request, _ in
            _ = try await administrator(request)
            _ = try AnswerQuery(request, allowed: ["after", "limit", "user"])
            let after = try number(request, "after", default: 0, in: 0...Int64.max)
            let limit = try number(request, "limit", default: 100, in: 1...1000)
            let user = request.uri.queryParameters.get("user")
            let events = try await storage.audit(after: after, user: user, limit: Int(limit))
            return try json(AdminWire.Audit(events: events, last: events.last?.id ?? after), for: request)
        }
        // No sign-in: the token is the proof. The new password follows the rule, and every
        // sign-in of the user ends with the old password.
        router.post("/v1/password-reset") { request, context in
            let body = try await decode(AdminWire.Redeem.self, request)
            if let weakness = Passwords.weakness(body.password) { throw Problem(422, "weak_password", "password: \(weakness)") }
            let logN = logN
            let password = body.password
            let hash = try await gate.run { try Passwords.hash(password, logN: logN) }
            guard try await storage.redeemReset(Tokens.digest(body.token), user: body.user, hash: hash, now: now()) else {
                throw Problem(401, "unauthorized", "that reset token is wrong, used or expired for \(body.user): ask an administrator for a new one")
            }
            await audit(.passwordReset, by: body.user, request, context)
            return Response(status: .noContent)
        }
    }

    private func adminUser(_ name: String) async throws -> AdminWire.User {
        guard let user = try await storage.users().first(where: { $0.name == name }) else {
            throw Problem(404, "not_found", PeopleError.noUser(name).description)
        }
        return AdminWire.User(name: user.name, admin: user.admin, disabled: user.disabled, createdAt: user.createdAt)
    }
}
