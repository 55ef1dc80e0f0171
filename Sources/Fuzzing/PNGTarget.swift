import CDeflate
import PNGFile

/// Pictures from outside: a PNG opened as the canvas or pasted from the clipboard. Both go
/// through libpng's simplified API and the same size check and conversion; this target takes
/// the clipboard's path, `PNGImage.decode(_:maxSide:)`.
///
/// Every input is decoded as it is and, when its chunks' checksums are wrong, again with them
/// made right, so that mutations get past libpng's CRC checks to its decoders. For each: no
/// crash; a picture decoded is 1…`maxSide` pixels on each side and has a pixel for every
/// position; the same bytes with a limit one below its larger side are refused, by their size;
/// and the picture, encoded as a pasted one is kept beside the journal, decodes again to the same
/// pixels.
public enum PNGTarget: FuzzTarget {
    public static let name = "png"
    /// Small, so that a header claiming a huge picture is refused before any pixel is allocated
    /// and every input stays fast.
    static let maxSide = 256

    public static func check(_ bytes: UnsafeBufferPointer<UInt8>) -> FuzzFinding? {
        let given = Array(bytes)
        let mended = withChecksumsMended(given)
        return check(given) ?? (mended == given ? nil : check(mended).map { FuzzFinding("with its CRCs mended: \($0)") })
    }

    private static func check(_ png: [UInt8]) -> FuzzFinding? {
        guard let image = try? PNGImage.decode(png, maxSide: maxSide) else { return nil }
        let (w, h) = (image.width, image.height)
        guard (1...maxSide).contains(w), (1...maxSide).contains(h), image.pixels.count == w * h else {
            return FuzzFinding("decoded a \(w)x\(h) picture of \(image.pixels.count) pixels with the limit \(maxSide)")
        }
        let limit = max(w, h) - 1
        do {
            let again = try PNGImage.decode(png, maxSide: limit)
            return FuzzFinding("a \(w)x\(h) picture decoded as \(again.width)x\(again.height) with the limit \(limit)")
        } catch {
            guard error.kind == .tooLarge else {
                return FuzzFinding("a \(w)x\(h) picture over the limit \(limit) refused for another reason: \(error.message)")
            }
        }
        do {
            let reread = try PNGImage.decode(try image.encode(), maxSide: maxSide)
            if reread != image { return FuzzFinding("a \(w)x\(h) picture encoded decodes as \(reread), not \(image)") }
        } catch {
            return FuzzFinding("a \(w)x\(h) picture decoded does not encode and decode again: \(error.message)")
        }
        return nil
    }

    /// `png` with every whole chunk's CRC-32 set to what its type and data sum to.
    static func withChecksumsMended(_ png: [UInt8]) -> [UInt8] {
        guard png.starts(with: PNGImage.signature) else { return png }
        var out = png
        var at = PNGImage.signature.count
        while at + 12 <= out.count {
            let length = out[at..<at + 4].reduce(0) { $0 << 8 | Int($1) }
            let end = at + 8 + length
            guard end + 4 <= out.count else { break }
            let crc = out.withUnsafeBufferPointer { b in libdeflate_crc32(0, b.baseAddress.map { $0 + at + 4 }, length + 4) }
            for i in 0..<4 { out[end + i] = UInt8(truncatingIfNeeded: crc >> (24 - 8 * i)) }
            at = end + 4
        }
        return out
    }
}
