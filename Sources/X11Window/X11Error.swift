/// What can go wrong opening and setting up the X11 window: its kind, for callers that act on
/// the cause, and a one-line reason for stderr.
public struct X11Error: Error, CustomStringConvertible, Sendable, Equatable {
    /// What went wrong.
    public enum Kind: Sendable, Equatable {
        /// No display was named: neither given nor in $DISPLAY.
        case noDisplay
        /// The display named could not be opened: no server there, or it refused this client.
        case cannotOpenDisplay
        /// The display's default visual is missing or not 32-bit little-endian xRGB, the only
        /// pixel layout presented.
        case unsupportedVisual
        /// The server lacks an extension that was asked for (XInput 2.2): the caller does without.
        case missingExtension
        /// This system gave no shared-memory segment for the image (XShmCreateImage, shmget or
        /// shmat failed): XPutImage still presents.
        case sharedMemoryUnavailable
        /// The server could not attach the segment (a remote display, another IPC namespace):
        /// it never will on this connection; XPutImage still presents.
        case sharedMemoryAttachFailed
        /// No client-side image could be made for the frame (XCreateImage failed).
        case cannotCreateImage
        /// The window's graphics context could not be made.
        case cannotCreateWindow
    }

    public let kind: Kind
    /// The reason, in words (e.g. `cannot open display ":99"`).
    public let description: String

    /// An error of `kind`, said as `description`.
    public init(_ kind: Kind, _ description: String) { self.kind = kind; self.description = description }

    /// The display could not be opened (not running, no permission, $DISPLAY unset).
    static func cannotOpenDisplay(_ name: String) -> X11Error {
        name.isEmpty ? X11Error(.noDisplay, "cannot open display (DISPLAY is not set)")
            : X11Error(.cannotOpenDisplay, "cannot open display \"\(name)\"")
    }

    /// The default visual is not 32-bit little-endian xRGB, the only pixel layout presented.
    static func unsupportedVisual(_ detail: String) -> X11Error {
        X11Error(.unsupportedVisual, "unsupported visual: \(detail); need depth 24/32, 32 bits per pixel, masks ff0000/ff00/ff, LSBFirst")
    }
}
