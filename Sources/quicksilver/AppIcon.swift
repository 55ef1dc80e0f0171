import Foundation
import PNGFile
import X11Window

/// The program's icon for its own window (`_NET_WM_ICON`): the sizes `make icons` embedded
/// from packaging/icons, the same pictures the desktop's menus show.
enum AppIcon {
    /// The embedded sizes, decoded; a size that does not decode is left out (it cannot happen
    /// with what `make icons` writes, and a window without an icon is still a window).
    static func windowIcons() -> [WindowIcon] {
        AppIconPNGs.base64.compactMap { entry in
            guard let data = Data(base64Encoded: entry.png),
                  let image = try? PNGImage.decode(Array(data), maxSide: 1024) else { return nil }
            return WindowIcon(width: image.width, height: image.height, argb: image.pixels)
        }
    }
}
