/// The `file://` URIs a file chooser answers with, as paths: `file:///home/a/my%20drawing.ora`
/// is `/home/a/my drawing.ora`. Percent escapes are bytes of UTF-8 (RFC 8089, 3986).
public enum FileURI {
    /// The local path `uri` names; nil when it is not a `file:` URI of this host, or its escapes
    /// are malformed or do not spell UTF-8 (or a NUL, which no path holds).
    public static func path(_ uri: String) -> String? {
        guard uri.lowercased().hasPrefix("file:") else { return nil }
        var rest = Substring(uri.dropFirst(5))
        if rest.hasPrefix("//") {
            rest = rest.dropFirst(2)
            // An authority: empty or "localhost" is this host; any other is not a local file.
            let slash = rest.firstIndex(of: "/") ?? rest.endIndex
            let host = rest[..<slash].lowercased()
            guard host.isEmpty || host == "localhost" else { return nil }
            rest = rest[slash...]
        }
        guard rest.hasPrefix("/") else { return nil }
        if let end = rest.firstIndex(where: { $0 == "?" || $0 == "#" }) { rest = rest[..<end] }
        return decode(rest)
    }

    /// `text` with each `%XX` made the byte it stands for.
    static func decode(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var utf8 = text.utf8.makeIterator()
        while let b = utf8.next() {
            guard b == UInt8(ascii: "%") else {
                bytes.append(b)
                continue
            }
            guard let hi = utf8.next().flatMap(hexValue), let lo = utf8.next().flatMap(hexValue) else { return nil }
            bytes.append(hi << 4 | lo)
        }
        guard !bytes.contains(0) else { return nil }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
