// Which columns a store has indexes on, for the lowering to choose its plans by.
//
// A to-many condition can run as a probe per object or as one pass over the
// elements (`SQLLowering+ElementPasses`); which is faster depends on whether
// something else in the query can use an index. SwiftData creates an index on
// every foreign key and the model may add others with `#Index`, so the answer is
// read from the store: the first column of every index, by table. The primary
// key (the rowid) needs no entry. When the indexes cannot be read, the mapping
// says nothing and lowering assumes any column may be indexed.

import PredicateQuery

extension SQLiteStore {
    /// The first column of each index in the store, by table, lowercased; nil if
    /// the schema cannot be read.
    static func indexedColumns(in connection: SQLiteConnection) -> [String: Set<String>]? {
        let sql = """
            SELECT m."tbl_name", i."name" FROM "sqlite_master" m, pragma_index_info(m."name") i
            WHERE m."type" = 'index' AND i."seqno" = 0
            """
        do {
            let statement = try connection.prepare(sql)
            var columns: [String: Set<String>] = [:]
            while try statement.step() {
                guard case .string(let table) = statement.column(0), case .string(let column) = statement.column(1) else {
                    continue
                }
                columns[table.lowercased(), default: []].insert(column.lowercased())
            }
            return columns
        } catch {
            return nil
        }
    }

    /// Reads the indexes again, after this store created tables or ran SQL.
    func refreshIndexes() {
        mapping.indexedColumns = Self.indexedColumns(in: connection)
    }
}
