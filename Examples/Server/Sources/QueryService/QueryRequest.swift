// What a client sends: an entity, a filter and a sort as pq text, and the values
// of the filter's parameters.

/// A query request, as the JSON body of `POST /query` or the parts of `GET /:entity`.
public struct QueryRequest: Codable, Sendable, Hashable {
    /// The entity to fetch, such as `Budget`.
    public var entity: String
    /// A predicate in pq's language, such as `limit > $min && name contains 'Vac'`.
    public var filter: String?
    /// Sort keys in pq's language, such as `limit desc, name`.
    public var sort: String?
    /// The values of the filter's `$parameters`, by name without the `$`.
    public var parameters: [String: JSONValue]
    /// At most this many rows (the service caps it; see `QueryService.maximumRows`).
    public var limit: Int?
    /// Rows to skip, for paging.
    public var offset: Int?

    public init(
        entity: String, filter: String? = nil, sort: String? = nil, parameters: [String: JSONValue] = [:],
        limit: Int? = nil, offset: Int? = nil
    ) {
        self.entity = entity
        self.filter = filter
        self.sort = sort
        self.parameters = parameters
        self.limit = limit
        self.offset = offset
    }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case entity, filter, sort, parameters, limit, offset
    }

    /// The fields a JSON request may have; any other is rejected.
    public static let fieldNames = CodingKeys.allCases.map(\.rawValue)

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        entity = try container.decode(String.self, forKey: .entity)
        filter = try container.decodeIfPresent(String.self, forKey: .filter)
        sort = try container.decodeIfPresent(String.self, forKey: .sort)
        parameters = try container.decodeIfPresent([String: JSONValue].self, forKey: .parameters) ?? [:]
        limit = try container.decodeIfPresent(Int.self, forKey: .limit)
        offset = try container.decodeIfPresent(Int.self, forKey: .offset)
    }
}
