import Clock
import Dispatch
import Foundation

/// Files the window writes (a saved document, a screenshot) are encoded and written on a queue
/// of their own, in order, so the frame loop goes on reading input meanwhile: a stroke drawn
/// while a big document is saved reaches the journal as fast as any other (the chaos run lost
/// strokes sent during a save, which the loop did not read for a second). What each write says
/// is taken by the loop, woken by `wakeup`, and shown.
final class BackgroundWrites: @unchecked Sendable {
    /// What a finished write says, and the file it saved the document to (with the edit it saved).
    struct Done: Sendable {
        var said: String
        var saved: (path: String, revision: Int)?
    }

    private let queue = DispatchQueue(label: "quicksilver.writes")
    private let lock = NSLock()
    private var done: [Done] = []
    private var pending = 0
    private let wakeup: Wakeup?

    init(wakeup: Wakeup?) { self.wakeup = wakeup }

    /// Runs `write` on the queue; what it returns is taken by `take()`.
    func run(_ write: @escaping @Sendable () -> Done) {
        lock.withLock { pending += 1 }
        queue.async { [self] in
            let result = write()
            lock.withLock {
                done.append(result)
                pending -= 1
            }
            wakeup?.signal()
        }
    }

    /// A write is under way or done and not yet taken.
    var isBusy: Bool { lock.withLock { pending > 0 || !done.isEmpty } }

    /// The writes finished since the last call, in order.
    func take() -> [Done] {
        lock.withLock {
            defer { done = [] }
            return done
        }
    }

    /// Waits for every write asked for so far (at the end of a session: every file whole).
    func wait() { queue.sync {} }
}
