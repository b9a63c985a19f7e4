import CapitalCore
import Foundation
import GRDB

extension Store {
    /// Groups in the order they were added, with their accounts.
    public func groups() throws(StoreError) -> [AccountGroup] {
        try read("listing groups") { db in try Store.fetchGroups(db) }
    }

    /// A group by name (case-insensitive) or unique id prefix.
    public func group(_ reference: String) throws(StoreError) -> AccountGroup {
        if let file = resolvedFile { return try Store.fromFile(file) { try Store.resolveGroup(in: file.groups, reference) } }
        return try read("finding a group") { db in try Store.resolveGroup(db, reference) }
    }

    @discardableResult
    public func addGroup(name: String, type: GroupType, accounts: [String] = []) throws(StoreError) -> AccountGroup {
        try Store.validateName(name, field: "name")
        return try write("adding group '\(name)'") { db in
            let group = AccountGroup(id: Store.newID(), name: name, type: type)
            try Store.insertGroup(db, group)
            for reference in accounts {
                try Store.addMember(db, groupID: group.id, accountID: try Store.resolveAccount(db, reference).id)
            }
            return try Store.resolveGroup(db, group.id)
        }
    }

    /// Soft-deletes a group; its accounts stay.
    @discardableResult
    public func removeGroup(_ reference: String) throws(StoreError) -> AccountGroup {
        try write("removing group '\(reference)'") { db in
            let group = try Store.resolveGroup(db, reference)
            try db.cachedStatement(sql: "DELETE FROM groupMember WHERE groupId = ?").execute(arguments: [group.id])
            try db.cachedStatement(sql: "UPDATE accountGroup SET deleted = 1, updatedAt = ?, version = version + 1 WHERE id = ?").execute(arguments: [
                Timestamp.now(), group.id,
            ])
            return group
        }
    }

    /// Puts accounts into a group (an account may be in several groups).
    public func addToGroup(_ reference: String, accounts: [String]) throws(StoreError) {
        try write("adding accounts to group '\(reference)'") { db in
            let group = try Store.resolveGroup(db, reference)
            for account in accounts {
                let id = try Store.resolveAccount(db, account).id
                if group.accountIDs.contains(id) {
                    throw StoreError.invalid(field: "account", value: account, reason: "it is already in group '\(FieldKeys.literal(group.name))'")
                }
                try Store.addMember(db, groupID: group.id, accountID: id)
            }
        }
    }

    /// Takes accounts out of a group.
    public func removeFromGroup(_ reference: String, accounts: [String]) throws(StoreError) {
        try write("removing accounts from group '\(reference)'") { db in
            let group = try Store.resolveGroup(db, reference)
            for account in accounts {
                let id = try Store.resolveAccount(db, account).id
                guard group.accountIDs.contains(id) else {
                    throw StoreError.invalid(field: "account", value: account, reason: "it is not in group '\(FieldKeys.literal(group.name))'")
                }
                try db.cachedStatement(sql: "DELETE FROM groupMember WHERE groupId = ? AND accountId = ?").execute(arguments: [group.id, id])
                try db.cachedStatement(sql: "UPDATE accountGroup SET updatedAt = ?, version = version + 1 WHERE id = ?").execute(arguments: [
                    Timestamp.now(), group.id,
                ])
            }
        }
    }

    static func insertGroup(_ db: Database, _ group: AccountGroup) throws {
        if try String.fetchOne(
            db.cachedStatement(sql: "SELECT id FROM accountGroup WHERE deleted = 0 AND nameKey = ?"), arguments: [Store.nameKey(group.name)]) != nil
        {
            throw StoreError.duplicateName(what: "group", name: group.name)
        }
        let position = try Int.fetchOne(db.cachedStatement(sql: "SELECT COALESCE(MAX(position), 0) + 1 FROM accountGroup")) ?? 1
        let now = Timestamp.now()  // converted once, used for createdAt and updatedAt
        try db.cachedStatement(sql: "INSERT INTO accountGroup(id, createdAt, updatedAt, name, nameKey, type, position) VALUES (?, ?, ?, ?, ?, ?, ?)")
            .execute(arguments: [group.id, now, now, group.name, Store.nameKey(group.name), group.type.rawValue, position])
    }

    static func addMember(_ db: Database, groupID: String, accountID: String) throws {
        let position =
            try Int.fetchOne(
                db.cachedStatement(sql: "SELECT COALESCE(MAX(position), 0) + 1 FROM groupMember WHERE groupId = ?"), arguments: [groupID]) ?? 1
        try db.cachedStatement(sql: "INSERT OR IGNORE INTO groupMember(groupId, accountId, position) VALUES (?, ?, ?)").execute(arguments: [
            groupID, accountID, position,
        ])
        try db.cachedStatement(sql: "UPDATE accountGroup SET updatedAt = ?, version = version + 1 WHERE id = ?").execute(arguments: [
            Timestamp.now(), groupID,
        ])
    }

    static func fetchGroups(_ db: Database) throws -> [AccountGroup] {
        var members: [String: [String]] = [:]
        for row in try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT groupMember.groupId, groupMember.accountId FROM groupMember
                    JOIN account ON account.id = groupMember.accountId AND account.deleted = 0
                    ORDER BY groupMember.groupId, groupMember.position
                    """))
        {
            members[row["groupId"], default: []].append(row["accountId"])
        }
        return try Row.fetchAll(db.cachedStatement(sql: "SELECT id, name, type FROM accountGroup WHERE deleted = 0 ORDER BY position")).map { row in
            let typeText: String = row["type"]
            guard let type = GroupType(rawValue: typeText) else {
                throw StoreError.unreadable(path: nil, field: "accountGroup.type", value: typeText, reason: "not a group type")
            }
            let id: String = row["id"]
            return AccountGroup(id: id, name: row["name"], type: type, accountIDs: members[id] ?? [])
        }
    }

    static func resolveGroup(_ db: Database, _ reference: String) throws -> AccountGroup {
        try resolveGroup(in: try fetchGroups(db), reference)
    }

    /// The group of `groups` that `reference` names: by name (any case), else by a unique id prefix.
    static func resolveGroup(in groups: [AccountGroup], _ reference: String) throws -> AccountGroup {
        if let byName = groups.first(where: { Store.nameKey($0.name) == Store.nameKey(reference) }) { return byName }
        let matches = idPrefixMatches(reference, in: groups, id: \.id)
        if matches.count == 1 { return matches[0] }
        if matches.count > 1 {
            throw StoreError.ambiguous(what: "group", reference: reference, candidates: matches.map { "\(shortID($0.id)) (\($0.name))" })
        }
        throw StoreError.notFound(
            what: "group", reference: reference,
            hint: groups.isEmpty ? .noGroupsYet : .list("group"))
    }
}
