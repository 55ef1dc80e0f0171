import Clock
import CX11
import Compute
import Geometry
import Input

/// Presenting: the frame image the next frame is composed into, put on screen with
/// XShmPutImage (or XPutImage), and the completions that say the server has read it.
extension X11Window {
    /// The image the next frame is composed into (0xAARRGGBB, B,G,R,A in memory), `size` pixels.
    ///
    /// With MIT-SHM this first waits for the server to finish reading the previous present
    /// (its ShmCompletion event); events read meanwhile are kept for `pendingEvents()`.
    /// The view stays valid until the next `pendingEvents()` (a resize replaces the image).
    public func frameTarget() -> Texture<UInt32> {
        guard let image else { preconditionFailure("frameTarget() after close()") }
        waitForCompletions()
        return image.texture
    }

    /// Shows `damage` (clipped to the image) of the frame target and flushes the request.
    public func present(_ damage: Rect) {
        guard let d = display, let image else { return }
        let rect = damage.intersection(image.texture.bounds)
        guard !rect.isEmpty else { return }
        image.put(d, window, gc, rect)
        if image.isShared { outstandingPuts += 1 }
        XFlush(d)
    }

    /// Shows the whole last image again, without recomposing it (for `.expose`).
    public func presentAll() {
        guard let image else { return }
        present(image.texture.bounds)
    }

    /// True when events were read from the server (while waiting for a completion, say) that
    /// `pendingEvents()` has not handed out yet: poll() cannot see them.
    public var hasBufferedEvents: Bool {
        guard let d = display else { return false }
        return !queuedEvents.isEmpty || XEventsQueued(d, QueuedAlready) > 0
    }

    /// True while an XShmPutImage has not completed (XPutImage copies at once: never).
    public var isPresentPending: Bool {
        guard let d = display, outstandingPuts > 0 else { return false }
        // Take in any completion already read or readable, without blocking.
        while outstandingPuts > 0, let ev = XCalls.nextEventIfPending(d) { translate(ev, into: &queuedEvents) }
        return outstandingPuts > 0
    }

    /// Waits until the server has finished every present sent so far (its ShmCompletion; with
    /// XPutImage, until it has processed the request). Other events read meanwhile are kept.
    public func waitForPresentCompletion() {
        guard let d = display else { return }
        if usesSharedMemory { waitForCompletions() } else { XSync(d, False) }
    }

    /// Reads events until every XShmPutImage sent has completed. Never loses the other events.
    func waitForCompletions() {
        guard let d = display else { return }
        while outstandingPuts > 0 {
            if let ev = XCalls.nextEventIfPending(d) {
                translate(ev, into: &queuedEvents)
                continue
            }
            // Nothing buffered: sleep on the connection. A completion that never comes (a failed
            // request) must not hang the app: after a long silence, assume the server is done.
            let results = Poll.wait([connectionFileDescriptor], timeoutMS: 2000)
            if !results[0].readable && !results[0].broken {
                OSCalls.printError("quicksilver: no ShmCompletion after 2 s; continuing")
                outstandingPuts = 0
            }
        }
    }

    /// A new image of `size`: shared if allowed and possible, else plain. On the plain path the
    /// second value says why shared memory was not used.
    static func makeImage(_ d: DisplayHandle, visual: UnsafeMutablePointer<Visual>, depth: Int32,
                                  size: Size, tryShared: Bool) -> Result<(FrameImage, String?), X11Error> {
        var why: String?
        if tryShared {
            switch FrameImage.shared(d, visual: visual, depth: depth, size: size) {
            case .success(let image): return .success((image, nil))
            case .failure(let e): why = e.description
            }
        }
        return FrameImage.plain(d, visual: visual, depth: depth, size: size).map { ($0, why) }
    }

    /// Replaces the image after the window was resized. Put requests already sent that read the
    /// old segment are processed by the server before its detach.
    func resizeImage(to newSize: Size) {
        guard let d = display, let old = image else { return }
        old.release(d)
        switch Self.makeImage(d, visual: visual, depth: depth, size: newSize, tryShared: sharedMemoryAllowed) {
        case .success((let new, let why)):
            if sharedMemoryAllowed && !new.isShared {
                sharedMemoryAllowed = false
                OSCalls.printError("quicksilver: MIT-SHM unavailable (\(why ?? "?")); presenting with XPutImage")
            }
            image = new
        case .failure(let e):
            fatalError("quicksilver: cannot allocate a \(newSize) image: \(e)")
        }
        size = newSize
    }
}
