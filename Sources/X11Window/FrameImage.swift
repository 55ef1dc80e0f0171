import Compute
import CX11
import Geometry

/// One client-side image the window presents from: an XImage whose pixels live either in a
/// MIT-SHM segment the server reads directly, or in Swift-owned memory sent with XPutImage.
///
/// Must be released with `release(_:)` on the display's thread before the display closes.
final class FrameImage {
    let image: UnsafeMutablePointer<XImage>
    /// The segment (nil: plain memory). Lives at a stable heap address: Xlib keeps the pointer.
    let segment: UnsafeMutablePointer<XShmSegmentInfo>?
    private let ownedPixels: UnsafeMutableRawPointer?
    let texture: Texture<UInt32>
    private var released = false

    var size: Size { texture.size }
    var isShared: Bool { segment != nil }

    private init(image: UnsafeMutablePointer<XImage>, segment: UnsafeMutablePointer<XShmSegmentInfo>?,
                 ownedPixels: UnsafeMutableRawPointer?) {
        self.image = image
        self.segment = segment
        self.ownedPixels = ownedPixels
        let pixels = UnsafeMutableRawPointer(image.pointee.data!).assumingMemoryBound(to: UInt32.self)
        texture = Texture(base: pixels, width: Int(image.pointee.width), height: Int(image.pointee.height),
                          rowStride: Int(image.pointee.bytes_per_line) / 4)
    }

    deinit { precondition(released, "FrameImage dropped without release(_:)") }

    /// Checks the layout Xlib chose is 0xAARRGGBB little-endian, 4 bytes per pixel.
    private static func layoutProblem(_ image: UnsafeMutablePointer<XImage>) -> String? {
        let i = image.pointee
        if i.bits_per_pixel != 32 { return "\(i.bits_per_pixel) bits per pixel" }
        if i.byte_order != LSBFirst { return "MSBFirst byte order" }
        if i.bytes_per_line % 4 != 0 { return "row of \(i.bytes_per_line) bytes" }
        return nil
    }

    /// An image in a fresh private shared-memory segment, attached to the server.
    ///
    /// The segment is marked for removal as soon as both sides are attached, so it cannot
    /// outlive the process (not even a kill -9). Fails with a reason when the server cannot
    /// attach it (another IPC namespace, a remote display) or the system refuses the segment.
    static func shared(_ d: DisplayHandle, visual: UnsafeMutablePointer<Visual>, depth: Int32,
                       size: Size) -> Result<FrameImage, X11Error> {
        let info = UnsafeMutablePointer<XShmSegmentInfo>.allocate(capacity: 1)
        info.initialize(to: XShmSegmentInfo())
        guard let image = XShmCreateImage(d, visual, UInt32(depth), ZPixmap, nil, info,
                                          UInt32(size.width), UInt32(size.height)) else {
            info.deallocate()
            return .failure(X11Error(.sharedMemoryUnavailable, "XShmCreateImage failed"))
        }
        func fail(_ kind: X11Error.Kind, _ reason: String) -> Result<FrameImage, X11Error> {
            XCalls.destroyImage(image)
            info.deallocate()
            return .failure(X11Error(kind, reason))
        }
        if let problem = layoutProblem(image) { return fail(.unsupportedVisual, problem) }
        let bytes = Int(image.pointee.bytes_per_line) * Int(image.pointee.height)
        let id: Int32
        switch OSCalls.shmCreate(bytes: bytes) {
        case .success(let i): id = i
        case .failure(let e): return fail(.sharedMemoryUnavailable, e.description)
        }
        let address: UnsafeMutableRawPointer
        switch OSCalls.shmAttach(id) {
        case .success(let a): address = a
        case .failure(let e): OSCalls.shmRemove(id); return fail(.sharedMemoryUnavailable, e.description)
        }
        info.pointee.shmid = id
        info.pointee.shmaddr = address.assumingMemoryBound(to: CChar.self)
        info.pointee.readOnly = False
        image.pointee.data = info.pointee.shmaddr
        let error = XCalls.trapErrors(d) { _ = XShmAttach(d, info) }
        OSCalls.shmRemove(id)
        if let error {
            OSCalls.shmDetach(address)
            return fail(.sharedMemoryAttachFailed, "XShmAttach: " + XCalls.errorText(d, error))
        }
        return .success(FrameImage(image: image, segment: info, ownedPixels: nil))
    }

    /// An image in Swift-owned memory, presented with XPutImage.
    static func plain(_ d: DisplayHandle, visual: UnsafeMutablePointer<Visual>, depth: Int32,
                      size: Size) -> Result<FrameImage, X11Error> {
        let bytesPerLine = size.width * 4
        let pixels = UnsafeMutableRawPointer.allocate(byteCount: max(4, bytesPerLine * size.height),
                                                      alignment: 64)
        guard let image = XCreateImage(d, visual, UInt32(depth), ZPixmap, 0,
                                       pixels.assumingMemoryBound(to: CChar.self),
                                       UInt32(size.width), UInt32(size.height), 32, Int32(bytesPerLine)) else {
            pixels.deallocate()
            return .failure(X11Error(.cannotCreateImage, "XCreateImage failed"))
        }
        if let problem = layoutProblem(image) {
            XCalls.destroyImage(image)
            pixels.deallocate()
            return .failure(X11Error.unsupportedVisual(problem))
        }
        return .success(FrameImage(image: image, segment: nil, ownedPixels: pixels))
    }

    /// Sends `rect` (already clipped to the image) to `drawable`. With shared memory the server
    /// reads the pixels later and sends a ShmCompletion event when done; XPutImage copies them
    /// into the request at once.
    func put(_ d: DisplayHandle, _ drawable: Drawable, _ gc: GC, _ rect: Rect) {
        let x = Int32(rect.minX), y = Int32(rect.minY), w = UInt32(rect.width), h = UInt32(rect.height)
        if isShared {
            XShmPutImage(d, drawable, gc, image, x, y, x, y, w, h, True)
        } else {
            XPutImage(d, drawable, gc, image, x, y, x, y, w, h)
        }
    }

    /// Detaches the segment from the server and this process (or frees the memory) and destroys
    /// the XImage. Requests already sent that read the segment are processed before the detach.
    func release(_ d: DisplayHandle) {
        guard !released else { return }
        released = true
        if let segment {
            XShmDetach(d, segment)
            OSCalls.shmDetach(UnsafeMutableRawPointer(segment.pointee.shmaddr))
            XCalls.destroyImage(image)
            segment.deallocate()
        } else {
            XCalls.destroyImage(image)
            ownedPixels?.deallocate()
        }
    }
}
