import CLinux
import Foundation

/// Starts a thread of our own whose name the system knows.
///
/// Foundation on Linux keeps `Thread.name` to itself: the kernel, and so `ps`, `perf`, `gdb` and
/// a crash backtrace, would see the name of whichever thread started this one. Names longer than
/// 15 bytes are cut there; keep them short and distinct at the front.
public enum NamedThread {
    public static func start(_ name: String, stackSize: Int? = nil, _ body: @escaping @Sendable () -> Void) {
        let thread = Thread {
            snapshare_name_this_thread(name)
            body()
        }
        if let stackSize { thread.stackSize = stackSize }
        thread.start()
    }
}
