/// What can go wrong opening and setting up the X11 window.
public struct X11Error: Error, CustomStringConvertible, Sendable, Equatable {
    /// The reason, in words (e.g. `cannot open display ":99"`).
    public let description: String

    /// An error with this message.
    public init(_ description: String) { self.description = description }

    /// The display could not be opened (not running, no permission, $DISPLAY unset).
    static func cannotOpenDisplay(_ name: String) -> X11Error {
        X11Error(name.isEmpty ? "cannot open display (DISPLAY is not set)" : "cannot open display \"\(name)\"")
    }

    /// The default visual is not 32-bit little-endian xRGB, the only pixel layout presented.
    static func unsupportedVisual(_ detail: String) -> X11Error {
        X11Error("unsupported visual: \(detail); need depth 24/32, 32 bits per pixel, masks ff0000/ff00/ff, LSBFirst")
    }
}
