// Line editing and history without a package: the system's libedit (or GNU
// readline) is loaded at run time with dlopen, and its readline-compatible API is
// called through function pointers. Without either library, lines are read
// plainly. Tab completion is wired through `rl_attempted_completion_function`.

import Foundation

final class LineEditor {
    private typealias ReadlineFunction = @convention(c) (UnsafePointer<CChar>?) -> UnsafeMutablePointer<CChar>?
    private typealias HistoryFunction = @convention(c) (UnsafePointer<CChar>?) -> Int32
    private typealias TruncateFunction = @convention(c) (UnsafePointer<CChar>?, Int32) -> Int32
    typealias Generator = @convention(c) (UnsafePointer<CChar>?, Int32) -> UnsafeMutablePointer<CChar>?
    typealias Matches = @convention(c) (UnsafePointer<CChar>?, Generator?) -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
    typealias AttemptedCompletion =
        @convention(c) (UnsafePointer<CChar>?, Int32, Int32) -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?

    private var readline: ReadlineFunction?
    private var addHistory: HistoryFunction?
    private var readHistory: HistoryFunction?
    private var writeHistory: HistoryFunction?
    private var truncateHistory: TruncateFunction?
    private let historyPath: String?

    /// The library in use ("libedit.so.2", …), or nil when reading plainly.
    private(set) var library: String?

    init(historyPath: String?) {
        self.historyPath = historyPath
        let candidates = ["libedit.so.2", "libedit.so", "libreadline.so.8", "libreadline.so", "/usr/lib/libedit.3.dylib"]
        for name in candidates {
            guard let handle = dlopen(name, RTLD_NOW | RTLD_GLOBAL),
                let readline = dlsym(handle, "readline"), let add = dlsym(handle, "add_history")
            else { continue }
            self.readline = unsafeBitCast(readline, to: ReadlineFunction.self)
            addHistory = unsafeBitCast(add, to: HistoryFunction.self)
            readHistory = dlsym(handle, "read_history").map { unsafeBitCast($0, to: HistoryFunction.self) }
            writeHistory = dlsym(handle, "write_history").map { unsafeBitCast($0, to: HistoryFunction.self) }
            truncateHistory = dlsym(handle, "history_truncate_file").map { unsafeBitCast($0, to: TruncateFunction.self) }
            library = name
            Completion.install(handle)
            break
        }
        if let historyPath { _ = readHistory?(historyPath) }
    }

    /// The next line, or nil at end of input (Ctrl-D).
    func readLine(prompt: String) -> String? {
        guard let readline else {
            FileHandle.standardOutput.write(Data(prompt.utf8))
            return Swift.readLine(strippingNewline: true)
        }
        guard let pointer = readline(prompt) else { return nil }
        defer { free(pointer) }
        return String(cString: pointer)
    }

    func remember(_ line: String) {
        _ = addHistory?(line)
    }

    /// Writes the history file, keeping its last 1,000 lines.
    func save() {
        guard let historyPath else { return }
        _ = writeHistory?(historyPath)
        _ = truncateHistory?(historyPath, 1_000)
    }
}
