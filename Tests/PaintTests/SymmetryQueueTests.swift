import Compute
import Events
import Geometry
import Paint
import Testing

/// A drag of the symmetry's centre queues a symmetry a sample: only the last before a frame is
/// played (and so journaled), as with views.
@Suite struct SymmetryQueueTests {
    @Test func aSymmetryThatFollowsASymmetryIsQueuedInItsPlace() {
        let session = Session(size: Size(width: 40, height: 30), compute: ComputeContext(threads: 1))
        for x in [1.0, 2, 3] { session.handle(.command(.symmetry(Symmetry(mode: .vertical, x: x, y: 0)))) }
        #expect(session.queuedCount == 1)
        #expect(session.upcomingSymmetry == Symmetry(mode: .vertical, x: 3, y: 0))
        session.handle(.command(.undo))
        session.handle(.command(.symmetry(.off)))
        #expect(session.queuedCount == 3, "not past another event")
    }
}
