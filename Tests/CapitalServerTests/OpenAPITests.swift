import CapitalStore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import Testing

@testable import CapitalServer

/// `GET /openapi.json`: an OpenAPI 3.1 document of exactly the router's routes, whose parts refer
/// to what exists, and whose query parameters are the ones each route takes.
@Suite struct OpenAPITests {
    /// The document as the server answers it, parsed.
    static func document(_ client: any TestClientProtocol) async throws -> [String: Any] {
        try parsed(try await text(client))
    }

    /// The document's bytes: no token, no protocol header, as anyone may read it.
    static func text(_ client: any TestClientProtocol) async throws -> Data {
        let response = try await client.execute(uri: "/openapi.json", method: .get)
        #expect(response.status == .ok && response.headers[.contentType] == "application/json")
        return Data(buffer: response.body)
    }

    static func parsed(_ data: Data) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// `METHOD /path/{parameter}` of every operation of the document.
    static func operations(_ document: [String: Any]) throws -> [(method: String, path: String, operation: [String: Any])] {
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        return paths.flatMap { path, methods in
            methods.compactMap { method, operation in (operation as? [String: Any]).map { (method.uppercased(), path, $0) } }
        }
    }

    @Test func theDocumentNamesEveryRouteOfTheRouterAndNoOther() async throws {
        let harness = try SyncServerTests.Harness()
        defer { harness.remove() }
        let routes = Set(harness.server.router().routes.map { "\($0.method.rawValue) \($0.path)" })
        let document = try Self.parsed(try await harness.test { try await Self.text($0) })
        let documented = Set(try Self.operations(document).map { "\($0.method) \($0.path)" })
        #expect(documented == routes, "only in the router: \(routes.subtracting(documented)); only documented: \(documented.subtracting(routes))")
        #expect(routes.count > 30)
    }

    @Test func theDocumentIsWellFormedOpenAPI31() async throws {
        let harness = try SyncServerTests.Harness()
        defer { harness.remove() }
        let document = try Self.parsed(try await harness.test { try await Self.text($0) })
        #expect(document["openapi"] as? String == "3.1.0")
        let info = try #require(document["info"] as? [String: Any])
        #expect(info["title"] is String && info["version"] is String)
        let operations = try Self.operations(document)
        let ids = operations.compactMap { $0.operation["operationId"] as? String }
        #expect(ids.count == operations.count && Set(ids).count == ids.count, "operation ids are unique: \(ids)")
        // Every `$ref` names a part of the document.
        func refs(_ value: Any) -> [String] {
            switch value {
            case let object as [String: Any]: return (object["$ref"] as? String).map { [$0] } ?? [] + object.values.flatMap(refs)
            case let array as [Any]: return array.flatMap(refs)
            default: return []
            }
        }
        for ref in Set(refs(document)) {
            let parts = ref.split(separator: "/").dropFirst().map(String.init)
            #expect(ref.hasPrefix("#/"), "\(ref)")
            var node: Any? = document
            for part in parts { node = (node as? [String: Any])?[part] }
            #expect(node != nil, "\(ref) names nothing")
        }
        for (method, path, operation) in operations {
            let parameters = (operation["parameters"] as? [[String: Any]]) ?? []
            // Every {name} of the path is a required path parameter, and no other is.
            let declared = parameters.filter { $0["in"] as? String == "path" }.compactMap { $0["name"] as? String }
            #expect(declared == OpenAPI.pathParameters(path), "\(method) \(path): \(declared)")
            #expect(parameters.filter { $0["in"] as? String == "path" }.allSatisfy { $0["required"] as? Bool == true })
            let responses = try #require(operation["responses"] as? [String: Any], "\(method) \(path)")
            #expect(
                responses["default"] != nil && responses.keys.contains { $0.hasPrefix("2") || $0 == "303" }, "\(method) \(path): \(responses.keys)")
            #expect(operation["requestBody"] == nil || ["POST", "PUT"].contains(method), "\(method) \(path) has a body")
        }
    }

    /// Each query parameter the document gives an answer is one the route takes (never refused as
    /// unknown), and a parameter it does not give is refused, naming it.
    @Test func everyDocumentedQueryParameterIsTakenAndAnUndocumentedOneRefused() async throws {
        let harness = try SyncServerTests.Harness()
        defer { harness.remove() }
        try await harness.test { client in
            let token = try await SyncServerTests.tokens(client, "anna").access
            let ledger = try await SyncServerTests.createLedger(client, token)
            let document = try await Self.document(client)
            for (method, path, operation) in try Self.operations(document) where path.hasPrefix("/v1/ledgers/{ledger}/") {
                let query = ((operation["parameters"] as? [[String: Any]]) ?? []).filter { $0["in"] as? String == "query" }
                guard !query.isEmpty, let verb = HTTPRequest.Method(method) else { continue }
                let uri = path.replacingOccurrences(of: "{ledger}", with: ledger)
                for parameter in query {
                    let name = try #require(parameter["name"] as? String)
                    let response = try await client.execute(uri: "\(uri)?\(name)=1", method: verb, headers: SyncServerTests.headers(token))
                    if response.status == .badRequest {
                        let problem = try SyncServerTests.problem(response)
                        #expect(!problem.detail.contains("not a parameter"), "\(method) \(path) \(name): \(problem.detail)")
                    }
                }
                let response = try await client.execute(uri: "\(uri)?undocumented=1", method: verb, headers: SyncServerTests.headers(token))
                #expect(response.status == .badRequest, "\(method) \(path)")
                #expect(try SyncServerTests.problem(response).invalidParams?.map(\.name) == ["undocumented"], "\(method) \(path)")
            }
        }
    }

    /// A path the server has, asked with a method it does not take: 405 naming the ones it takes
    /// (`Allow`); a path it does not have: 404.
    @Test func anUndeclaredMethodIs405WithTheMethodsAllowed() async throws {
        let harness = try SyncServerTests.Harness()
        defer { harness.remove() }
        try await harness.test { client in
            for (method, path, allowed) in [
                (HTTPRequest.Method.trace, "/health", "GET"), (.delete, "/v1/ledgers", "GET, POST"),
                (.patch, "/v1/ledgers/some-ledger/members/boris", "DELETE, PUT"), (.get, "/v1/ledgers/x/transactions", "POST"),
            ] {
                let response = try await client.execute(uri: path, method: method, headers: SyncServerTests.headers())
                #expect(response.status == .methodNotAllowed && response.headers[.allow] == allowed, "\(method) \(path): \(response.headers)")
                #expect(try SyncServerTests.problem(response).code == "method_not_allowed")
            }
            let missing = try await client.execute(uri: "/v1/nothing/here", method: .get, headers: SyncServerTests.headers())
            #expect(missing.status == .notFound)
        }
    }
}
