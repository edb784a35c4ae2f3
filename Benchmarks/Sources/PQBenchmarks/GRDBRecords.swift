// GRDB records for the Core Data tables, as a GRDB user maps an existing store:
// FetchableRecord with a hand-written init(row:) (GRDB's fastest decoding), and
// the associations the queries need.

import Foundation
import GRDB

struct BudgetRecord: FetchableRecord, TableRecord {
    static let databaseTableName = "ZBUDGET"
    static let transactions = hasMany(TransactionRecord.self, using: ForeignKey(["ZBUDGET"]))
    enum Columns {
        static let id = Column("Z_PK")
        static let name = Column("ZNAME")
        static let limit = Column("ZLIMIT")
    }
    static var databaseSelection: [any SQLSelectable] { [Columns.id, Column("Z_ENT"), Columns.name, Columns.limit] }

    var id: Int64, entity: Int64, name: String, limit: Double

    init(row: Row) {
        id = row[0]; entity = row[1]; name = row[2]; limit = row[3]
    }
}

struct TransactionRecord: FetchableRecord, TableRecord {
    static let databaseTableName = "ZTRANSACTION"
    static let budget = belongsTo(BudgetRecord.self, using: ForeignKey(["ZBUDGET"]))
    enum Columns {
        static let id = Column("Z_PK")
        static let amount = Column("ZAMOUNT")
        static let date = Column("ZDATE")
        static let hasReceipt = Column("ZHASRECEIPT")
        static let budget = Column("ZBUDGET")
    }
    static var databaseSelection: [any SQLSelectable] {
        [Columns.id, Column("Z_ENT"), Column("ZNOTE"), Columns.amount, Columns.date, Columns.hasReceipt, Columns.budget]
    }

    var id: Int64, entity: Int64, note: String, amount: Double, date: Date, hasReceipt: Bool, budget: Int64?

    init(row: Row) {
        id = row[0]; entity = row[1]; note = row[2]; amount = row[3]
        date = Date(timeIntervalSinceReferenceDate: row[4]); hasReceipt = row[5]; budget = row[6]
    }
}

struct MovieRecord: FetchableRecord, TableRecord {
    static let databaseTableName = "ZMOVIE"
    enum Columns {
        static let id = Column("Z_PK")
        static let genre = Column("ZGENRE")
    }
    static var databaseSelection: [any SQLSelectable] { [Columns.id, Column("Z_ENT"), Column("ZNAME"), Columns.genre] }

    var id: Int64, entity: Int64, name: String, genre: Int64

    init(row: Row) {
        id = row[0]; entity = row[1]; name = row[2]; genre = row[3]
    }
}
