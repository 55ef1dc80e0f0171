/// One size of the window's icon, for the window manager's title bar, task bar and Alt+Tab
/// (EWMH `_NET_WM_ICON`). The program's icon files are for menus; this is the same picture,
/// carried by the window, so a window manager shows it even for a program never installed.
public struct WindowIcon: Equatable, Sendable {
    public var width: Int
    public var height: Int
    /// Row-major, `width * height` pixels, 0xAARRGGBB, not premultiplied (what EWMH asks for).
    public var argb: [UInt32]

    /// Nil when `argb` does not hold `width * height` pixels or a side is not positive.
    public init?(width: Int, height: Int, argb: [UInt32]) {
        guard width > 0, height > 0, argb.count == width * height else { return nil }
        self.width = width; self.height = height; self.argb = argb
    }

    /// The `_NET_WM_ICON` property's cardinals for `icons`: for each, its width, its height,
    /// then its pixels, one cardinal each (Xlib wants 32-bit properties as C longs).
    public static func cardinals(_ icons: [WindowIcon]) -> [Int] {
        var out: [Int] = []
        out.reserveCapacity(icons.reduce(0) { $0 + 2 + $1.argb.count })
        for icon in icons {
            out.append(icon.width)
            out.append(icon.height)
            for p in icon.argb { out.append(Int(p)) }
        }
        return out
    }
}
