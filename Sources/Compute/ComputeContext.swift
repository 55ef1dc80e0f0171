import Dispatch
import Geometry
import Synchronization

/// A threadgroup as a kernel sees it: where it sits in the grid and which threads it holds.
///
/// Edge threadgroups are partial: `threadPositions` is already cut to the grid, which is the
/// bounds check every kernel needs, so a kernel that loops over it never writes outside.
public struct Threadgroup: Sendable {
    /// Index of this threadgroup in the grid of threadgroups (Metal's threadgroup_position_in_grid).
    public let positionInGrid: (x: Int, y: Int)
    /// The threads of this group that fall inside the grid, as pixel coordinates
    /// (grid origin added): x in `threadPositions.xs`, y in `threadPositions.ys`.
    public let threadPositions: Rect
}

/// One device and one command queue for the whole app, like the seeds' MetalContext: it owns the
/// worker threads and runs compute passes on them.
///
/// Workers take threadgroups one at a time as they come free; since kernels write only their own
/// threads' pixels, the result is bit-identical whatever the thread count and whichever worker
/// runs which group.
public final class ComputeContext: Sendable {
    /// Worker count used for a dispatch big enough to be worth waking threads for.
    public let threadCount: Int
    /// Threadgroup size used when a caller does not choose one (Metal's common 16x16).
    public let threadsPerThreadgroup: Size
    /// Dispatches smaller than this many threads run on the calling thread: waking workers
    /// costs tens of microseconds, more than a small damage rectangle takes to compute.
    public let inlineThreshold: Int
    /// Large transient buffers that threadgroups borrow (a turned view's scratch).
    public let scratch: ScratchPool

    public init(threads: Int? = nil, threadsPerThreadgroup: Size = Size(width: 16, height: 16),
                inlineThreshold: Int = 16_384) {
        let available = System.activeProcessorCount
        self.threadCount = Swift.max(1, threads ?? available)
        self.threadsPerThreadgroup = threadsPerThreadgroup
        self.inlineThreshold = inlineThreshold
        self.scratch = ScratchPool(kept: self.threadCount)
    }

    /// Runs `kernel` once per threadgroup over a grid of `gridSize` threads whose first thread
    /// sits at `origin` (pass a damage rectangle's corner to compute only that region).
    ///
    /// - Parameters:
    ///   - threadgroupsPerGrid: how many groups in x and y; derive it with `threadgroups(covering:)`.
    ///   - threadsPerThreadgroup: the group's size (16x16 by default).
    ///   - workingThreads: how many of the grid's threads do the costly part, when far fewer than
    ///     all (a tile per group, blended only where a stroke crosses it and copied elsewhere):
    ///     it, not the grid, decides whether the pass is worth waking the workers for.
    public func dispatchThreadgroups(
        _ threadgroupsPerGrid: Size, threadsPerThreadgroup: Size,
        grid: Rect, workingThreads: Int? = nil, _ kernel: @Sendable (Threadgroup) -> Void
    ) {
        let groups = threadgroupsPerGrid.area
        guard groups > 0, !grid.isEmpty else { return }
        let tw = threadsPerThreadgroup.width, th = threadsPerThreadgroup.height
        let perRow = threadgroupsPerGrid.width
        @Sendable func run(_ g: Int) {
            let gx = g % perRow, gy = g / perRow
            let full = Rect(x: grid.minX + gx * tw, y: grid.minY + gy * th, width: tw, height: th)
            kernel(Threadgroup(positionInGrid: (gx, gy), threadPositions: full.intersection(grid)))
        }
        let workers = Swift.min(threadCount, groups)
        if workers <= 1 || (workingThreads ?? grid.area) < inlineThreshold {
            for g in 0..<groups { run(g) }
            return
        }
        // Each worker takes the next group not yet taken: a worker slowed by another process
        // takes fewer, instead of holding up the pass with its fixed share.
        let taken = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while case let g = taken.add(1, ordering: .relaxed).oldValue, g < groups { run(g) }
        }
    }

    /// Dispatches over `region` with this context's threadgroup size: the usual entry point.
    public func dispatch(over region: Rect, _ kernel: @Sendable (Threadgroup) -> Void) {
        let tg = threadsPerThreadgroup
        dispatchThreadgroups(Self.threadgroups(covering: region.size, threadsPerThreadgroup: tg),
                             threadsPerThreadgroup: tg, grid: region, kernel)
    }

    /// Dispatches over `region` in threadgroups one region-row wide and `rows` tall: for kernels
    /// that stream along rows (blur, threshold), where 16-pixel-wide groups would spend more on
    /// per-row set-up than on pixels.
    public func dispatchRows(over region: Rect, rows: Int = 8, _ kernel: @Sendable (Threadgroup) -> Void) {
        guard !region.isEmpty else { return }
        let tg = Size(width: region.width, height: rows)
        dispatchThreadgroups(Self.threadgroups(covering: region.size, threadsPerThreadgroup: tg), threadsPerThreadgroup: tg,
                             grid: region, kernel)
    }

    /// The number of threadgroups needed to cover `grid`, rounding up so nothing is trimmed.
    public static func threadgroups(covering grid: Size, threadsPerThreadgroup tg: Size) -> Size {
        Size(width: (grid.width + tg.width - 1) / tg.width, height: (grid.height + tg.height - 1) / tg.height)
    }
}
