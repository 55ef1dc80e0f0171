// Compute: the CPU stand-in for a Metal device and command queue.
//
// Start with `ComputeContext` (one per app, owns the worker threads) and its
// `dispatchThreadgroups(_:threadsPerThreadgroup:grid:_:)`. Kernels are plain functions that
// receive a `Threadgroup` and loop over its threads' positions in the grid; they work on
// `Texture` views (pointer + width + height + row stride). A `Presenter` hands out the texture a
// frame is composed into and shows it (the window; `OffscreenPresenter` for render and tests).
// `ScratchPool` lends threadgroups large transient buffers (Metal's threadgroup memory).
