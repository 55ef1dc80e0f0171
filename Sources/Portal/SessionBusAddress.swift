/// Where the session bus is, found as libdbus would but never by starting one: libdbus falls
/// back to "autolaunch:", which runs `dbus-launch` and leaves a bus daemon behind, for a question
/// a missing bus already answers (no portal).
public enum SessionBusAddress {
    /// `DBUS_SESSION_BUS_ADDRESS` when set (even to an address where nothing listens: then no
    /// portal answers), else the per-user bus `$XDG_RUNTIME_DIR/bus` when that socket exists,
    /// else nil.
    public static func find(environment: [String: String], exists: (String) -> Bool) -> String? {
        if let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty { return address }
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty, exists(runtime + "/bus") {
            return "unix:path=" + escaped(runtime + "/bus")
        }
        return nil
    }

    /// A path as a D-Bus address value: bytes outside `[-0-9A-Za-z_/.\*]` as %XX.
    static func escaped(_ path: String) -> String {
        var out = ""
        for b in path.utf8 {
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "/"), UInt8(ascii: "."), UInt8(ascii: "\\"), UInt8(ascii: "*"):
                out.unicodeScalars.append(Unicode.Scalar(b))
            default:
                let hex = String(b, radix: 16)
                out += "%" + (hex.count == 1 ? "0" : "") + hex
            }
        }
        return out
    }
}
