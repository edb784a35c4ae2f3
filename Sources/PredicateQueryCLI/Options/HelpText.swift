// `pq --help` (`pq --version` prints `PQVersion.text`).

enum HelpText {
    static let usage = """
        pq — query SwiftData, Core Data and SQLite stores with predicates

        Usage:
          pq [options] "<query>"     run one query and print the result
          pq [options]               open the REPL (on a terminal), or read one
                                     query or command per line from standard input
          pq lint [--format text|json|sarif|github|junit] [--strict] PATH...
                                     check every #Predicate, @Query, FetchDescriptor
                                     and SortDescriptor of a SwiftData app's sources

        Queries look like Swift and accept NSPredicate's spellings:
          pq "limit > 100 && name contains 'Vac'"
          pq "Movie where genre == .kids sort by name"
          pq "any tags.name ==[c] 'swift'"

        NSPredicate format strings, with arguments bound as parameters:
          pq --predicate-format "%K == %@ AND limit > %d" name Rent 100

        With no --store, pq uses its example store (the models of Examples/Models,
        with sample data), created on first use in a cache folder.

        Options:
          --store FILE         query the SQLite store FILE (opened read-only). A store
                               pq created carries its schema; a plain SQLite database
                               is read table by table; a Core Data / SwiftData store
                               with the model it keeps inside (or one inferred from
                               its tables), unless --model names one. A postgresql://
                               URL (or PQ_DATABASE_URL) queries a PostgreSQL database:
                               pq's tables, or any others, read from its catalog
          --load-examples      with a postgresql:// store: create pq's example tables
                               and data in it first (once: run again, it says so)
          --model FILE         read the model: SwiftData @Model classes from a Swift file
                               or a folder (and its subfolders), an Xcode model (.xcdatamodeld,
                               .xcdatamodel) or a compiled one (.momd, .mom) (repeatable)
          --model-version NAME with --model: the version of an .xcdatamodeld or .momd
                               to read, instead of its current one
          --layout NAME        with --model: coreData (default) or plain
          --entity NAME        the entity to query when the query names none
          --sort KEYS          sort keys, as in 'name desc, limit' (replaces the query's)
          --limit N            at most N objects (replaces the query's limit)
          --offset N           skip the first N objects (replaces the query's offset)
          --timeout SECONDS    stop a query that runs longer (Ctrl-C stops one too)
          --param NAME=VALUE   bind the parameter $NAME (repeatable); a list parameter
                               takes comma-separated values: --param names=Rent,Travel
          --format FORMAT      table (default), json, csv or markdown. The object's
                               key is the column '#' (JSON: the key "#"). Rows print
                               as they are read; a table lines up 1,000 rows at a time
          --columns NAMES      show only these columns, in this order: attributes,
                               relationships, '#' and attributes through to-one
                               relationships, as in --columns note,budget.name
          --null TEXT          print TEXT for nil in tables and Markdown (default:
                               nil); JSON prints null, CSV an empty field, and an
                               empty string is "" in CSV
          --predicate-format F an NSPredicate-style format (%@ %K %d %f %a %%, BETWEEN %@,
                               max(%@)…); the words after the options are its
                               arguments (lists 1,2; objects Budget:3)
          --swift              the query is a #Predicate in Swift (or a .swift file
                               holding one; '-' or none: standard input); captured
                               values are parameters, bound with --param
          --emit swift         print the query as Swift instead of running it: the
                               #Predicate and [SortDescriptor] for an app (on the
                               example store's models)
          --sql                print the SQL and the values bound to it
          --explain            print SQLite's query plan
          --count              print the number of matching objects
          --history            on a Core Data store, also its persistent-history
                               entities (TRANSACTION, CHANGE, …)
          --check              type-check only: print the query in pq's syntax with
                               the type of every name it uses, or the errors (with
                               --model and no --store, against the models alone;
                               --sql then prints the SQL the models' layout implies)
          --dump               as --check, but print the checked tree (S-expressions)
          --store-path         print the path of the store in use
          --version            print pq's version
          -h, --help           print this help

        Files pq keeps (each environment variable overrides the ones after it):
          REPL history         $PQ_HISTORY (empty: no history), $XDG_STATE_HOME/pq/history,
                               ~/.local/state/pq/history (macOS: ~/Library/Application
                               Support/pq/history); ~ is $HOME
          example store        $PQ_CACHE_DIR, $XDG_CACHE_HOME/pq, ~/.cache/pq (macOS:
                               ~/Library/Caches/pq)

        Exit status: 0 on success, 1 when the query has an error, 2 for a usage
        or file error. When the output's reader goes (pq … | head), pq stops the
        query and ends quietly, killed by SIGPIPE as cat is (a shell shows 141).
        """
}
