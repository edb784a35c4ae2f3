// Hand-written PostgreSQL schemas that pq did not create, with a few rows each,
// for the introspection tests of the library and of the command line: one as
// Vapor/Fluent writes it (snake_case, plural tables, UUID ids, `*_id` foreign keys
// with ON DELETE, a pivot table, an enum type, a CHECK enum, timestamptz, jsonb),
// and a legacy one in a schema of its own (serial and identity keys, singular
// names, a foreign key without `_id`, a zoneless timestamp, two foreign keys to
// one table and a join table joining a table to itself).

/// DDL and rows for databases pq did not create.
public enum PostgresExistingSchemas {
    /// A Fluent-style schema in `public`, with its rows.
    public static let fluent = """
        CREATE TYPE budget_kind AS ENUM ('monthly', 'one-off', 'yearly');
        CREATE TABLE users (
            id uuid PRIMARY KEY, name text NOT NULL, email varchar(200), created_at timestamptz);
        CREATE TABLE budgets (
            id uuid PRIMARY KEY, name text NOT NULL, "limit" numeric(12, 2) NOT NULL, kind budget_kind NOT NULL,
            owner_id uuid REFERENCES users (id) ON DELETE SET NULL, settings jsonb,
            created_at timestamptz NOT NULL DEFAULT now());
        CREATE TABLE transactions (
            id uuid PRIMARY KEY, budget_id uuid NOT NULL REFERENCES budgets (id) ON DELETE CASCADE,
            amount double precision NOT NULL, note text,
            status text NOT NULL CHECK (status IN ('pending', 'cleared', 'void')),
            created_at timestamptz NOT NULL, labels text[]);
        CREATE TABLE trips (id uuid PRIMARY KEY, title text NOT NULL, starts_on date);
        CREATE TABLE tags (id uuid PRIMARY KEY, name varchar(40) NOT NULL);
        CREATE TABLE trip_tag (
            id uuid PRIMARY KEY, trip_id uuid NOT NULL REFERENCES trips (id) ON DELETE CASCADE,
            tag_id uuid NOT NULL REFERENCES tags (id) ON DELETE CASCADE);
        CREATE TABLE trip_notes (trip_id uuid REFERENCES trips (id), seq int, body text, PRIMARY KEY (trip_id, seq));

        INSERT INTO users VALUES
            ('00000000-0000-0000-0000-0000000000a1', 'Ada', 'ada@example.com', '2024-01-02 10:00:00+00'),
            ('00000000-0000-0000-0000-0000000000a2', 'Brook', NULL, NULL);
        INSERT INTO budgets (id, name, "limit", kind, owner_id, settings, created_at) VALUES
            ('00000000-0000-0000-0000-0000000000b1', 'Rent', 1200.00, 'monthly', '00000000-0000-0000-0000-0000000000a1', '{"color": "red"}', '2024-01-05 09:00:00+00'),
            ('00000000-0000-0000-0000-0000000000b2', 'Vacation', 2500.50, 'yearly', '00000000-0000-0000-0000-0000000000a2', NULL, '2024-02-01 12:30:00+00'),
            ('00000000-0000-0000-0000-0000000000b3', 'Groceries', 400.00, 'monthly', NULL, NULL, '2024-03-01 08:00:00+00'),
            ('00000000-0000-0000-0000-0000000000b4', 'Laptop', 1800.00, 'one-off', '00000000-0000-0000-0000-0000000000a1', NULL, '2024-03-10 18:45:00+00');
        INSERT INTO transactions VALUES
            ('00000000-0000-0000-0000-0000000000c1', '00000000-0000-0000-0000-0000000000b1', 1200, 'March rent', 'cleared', '2024-03-01 10:00:00+00', '{home}'),
            ('00000000-0000-0000-0000-0000000000c2', '00000000-0000-0000-0000-0000000000b3', 82.4, NULL, 'cleared', '2024-03-02 17:00:00+00', NULL),
            ('00000000-0000-0000-0000-0000000000c3', '00000000-0000-0000-0000-0000000000b3', 45.1, 'market', 'pending', '2024-03-09 11:00:00+00', NULL),
            ('00000000-0000-0000-0000-0000000000c4', '00000000-0000-0000-0000-0000000000b2', 640, 'flights', 'void', '2024-03-11 07:00:00+00', NULL),
            ('00000000-0000-0000-0000-0000000000c5', '00000000-0000-0000-0000-0000000000b3', 130, NULL, 'cleared', '2024-03-16 16:00:00+00', NULL),
            ('00000000-0000-0000-0000-0000000000c6', '00000000-0000-0000-0000-0000000000b2', 310, 'hotel', 'pending', '2024-03-20 20:00:00+00', NULL);
        INSERT INTO trips VALUES
            ('00000000-0000-0000-0000-0000000000d1', 'Lisbon', '2024-05-01'),
            ('00000000-0000-0000-0000-0000000000d2', 'Alps', '2024-12-20'),
            ('00000000-0000-0000-0000-0000000000d3', 'Home', NULL);
        INSERT INTO tags VALUES
            ('00000000-0000-0000-0000-0000000000e1', 'beach'), ('00000000-0000-0000-0000-0000000000e2', 'family'),
            ('00000000-0000-0000-0000-0000000000e3', 'ski');
        INSERT INTO trip_tag VALUES
            ('00000000-0000-0000-0000-0000000000f1', '00000000-0000-0000-0000-0000000000d1', '00000000-0000-0000-0000-0000000000e1'),
            ('00000000-0000-0000-0000-0000000000f2', '00000000-0000-0000-0000-0000000000d1', '00000000-0000-0000-0000-0000000000e2'),
            ('00000000-0000-0000-0000-0000000000f3', '00000000-0000-0000-0000-0000000000d2', '00000000-0000-0000-0000-0000000000e3'),
            ('00000000-0000-0000-0000-0000000000f4', '00000000-0000-0000-0000-0000000000d2', '00000000-0000-0000-0000-0000000000e2');
        """

    /// A legacy schema in the schema `legacy` (reach it with `search_path`), with its rows.
    public static let legacy = """
        CREATE SCHEMA legacy;
        CREATE TABLE legacy.customer (
            id serial PRIMARY KEY, full_name varchar(80) NOT NULL, vip boolean NOT NULL DEFAULT false, born date,
            rating real);
        CREATE TABLE legacy.invoice (
            invoice_no bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, customer integer REFERENCES legacy.customer (id),
            total numeric(10, 2), issued timestamp NOT NULL, paid smallint, state char(1) CHECK (state = 'o' OR state = 'p'));
        CREATE TABLE legacy.invoice_line (
            id bigserial PRIMARY KEY, invoice_id bigint NOT NULL REFERENCES legacy.invoice ON DELETE CASCADE,
            item text NOT NULL, qty int NOT NULL, price float8 NOT NULL);
        CREATE TABLE legacy.unkeyed_log (at timestamptz, message text);
        CREATE TABLE legacy.transfer (
            id serial PRIMARY KEY, from_customer_id int NOT NULL REFERENCES legacy.customer,
            to_customer_id int NOT NULL REFERENCES legacy.customer, amount numeric(10, 2) NOT NULL);
        CREATE TABLE legacy.customer_friend (
            customer_id int REFERENCES legacy.customer, friend_id int REFERENCES legacy.customer,
            PRIMARY KEY (customer_id, friend_id));

        INSERT INTO legacy.customer (full_name, vip, born, rating) VALUES
            ('Ada Lovelace', true, '1815-12-10', 4.5), ('Charles Babbage', false, '1791-12-26', NULL),
            ('Grace Hopper', true, NULL, 5);
        INSERT INTO legacy.invoice (customer, total, issued, paid, state) VALUES
            (1, 120.50, '2024-03-01 09:30:00', 1, 'p'), (1, 80.00, '2024-03-05 14:00:00', 0, 'o'),
            (3, 999.99, '2024-03-07 08:15:00', 1, 'p'), (NULL, 15.00, '2024-03-08 12:00:00', 0, NULL);
        INSERT INTO legacy.invoice_line (invoice_id, item, qty, price) VALUES
            (1, 'paper', 10, 2.5), (1, 'ink', 2, 47.75), (2, 'gears', 8, 10), (3, 'compiler', 1, 999.99),
            (4, 'stamps', 30, 0.5);
        INSERT INTO legacy.transfer (from_customer_id, to_customer_id, amount) VALUES (1, 2, 10), (1, 3, 20), (3, 1, 5);
        INSERT INTO legacy.customer_friend VALUES (1, 2), (1, 3), (2, 3);
        """
}
