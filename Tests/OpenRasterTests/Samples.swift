import Geometry
import OpenRaster
import PNGFile

/// Pictures for the tests, each with something in every corner (so that writing, which crops a
/// layer to its pixels with alpha, keeps it as it is) unless a test says otherwise.
enum Samples {
    /// Every pixel different, alpha from 1 to 255 (the corners' too), colours straight.
    static func image(width: Int, height: Int, seed: UInt32, opaque: Bool = false) -> PNGImage {
        let pixels = (0..<(width * height)).map { i -> UInt32 in
            let v = UInt32(i) &* 2654435761 &+ seed &* 40503
            let alpha: UInt32 = opaque ? 255 : 1 + (v >> 24) % 255
            return alpha << 24 | (v & 0xFFFFFF)
        }
        return PNGImage(width: width, height: height, pixels: pixels)
    }

    /// `width`x`height`, transparent but for `rect`, filled with `colour`.
    static func image(width: Int, height: Int, filling rect: Rect, with colour: UInt32) -> PNGImage {
        var image = PNGImage(width: width, height: height, pixels: Array(repeating: 0, count: width * height))
        for y in rect.ys { for x in rect.xs { image.pixels[y * width + x] = colour } }
        return image
    }

    static let trickyName = "Ink & <shade> \"quoted\" 'single' — ünïcødé 🎨\tand a\nnew line"

    /// Three layers that use every field: XML's special characters and non-ASCII in names and
    /// attributes, offsets in and beyond the image, opacity, a hidden layer, composite ops, extra
    /// attributes (one with a namespace prefix); xres, yres and that namespace on the image.
    static func document() -> ORADocument {
        ORADocument(size: Size(width: 40, height: 30), layers: [
            ORALayer(name: "Background", image: image(width: 40, height: 30, seed: 1, opaque: true)),
            ORALayer(name: trickyName, x: 5, y: -3, opacity: 0.35, visible: false, compositeOp: "svg:multiply",
                     image: image(width: 10, height: 8, seed: 2),
                     extraAttributes: [ORAAttribute("selected", "true"), ORAAttribute("qs:note", "a<b>&\"c\" 'd' é")]),
            ORALayer(name: "far away", x: 100, y: 200, opacity: 0, compositeOp: "svg:screen", image: image(width: 3, height: 2, seed: 3),
                     extraAttributes: [ORAAttribute("edit-locked", "true")]),
        ], attributes: [ORAAttribute("xres", "300"), ORAAttribute("yres", "300"), ORAAttribute("xmlns:qs", "urn:example:quicksilver")])
    }

    static let merged = image(width: 40, height: 30, seed: 9, opaque: true)
}
