import CDBus

/// A private connection to a D-Bus bus through libdbus: the one file of the program that calls
/// it. Blocking calls, made from one thread at a time (`PortalFileChooser`'s own).
final class BusConnection {
    /// A signal received: where it came from and its arguments.
    struct Signal: Equatable {
        var path: String
        var interface: String
        var member: String
        var arguments: [DBusValue]
    }

    private let connection: OpaquePointer
    /// This connection's unique name on the bus (":1.42").
    let uniqueName: String

    /// Connects to the bus at `address` and says hello. Private: closing it never touches a
    /// connection someone else in the process shares, and a lost bus never exits the process.
    init(address: String) throws(PortalError) {
        var error = DBusError()
        dbus_error_init(&error)
        guard let c = dbus_connection_open_private(address, &error) else {
            throw PortalError(.noBus, "no session bus at \(address): \(Self.take(&error))")
        }
        dbus_connection_set_exit_on_disconnect(c, 0)
        guard dbus_bus_register(c, &error) != 0, let name = dbus_bus_get_unique_name(c) else {
            let why = Self.take(&error)
            dbus_connection_close(c)
            dbus_connection_unref(c)
            throw PortalError(.noBus, "the session bus at \(address) did not answer: \(why)")
        }
        connection = c
        uniqueName = String(cString: name)
    }

    deinit {
        dbus_connection_close(connection)
        dbus_connection_unref(connection)
    }

    /// Calls a method and waits up to `timeoutMS` for its reply's arguments.
    func call(_ destination: String, _ path: String, _ interface: String, _ method: String, _ arguments: [DBusValue],
              timeoutMS: Int32) throws(PortalError) -> [DBusValue] {
        guard let message = dbus_message_new_method_call(destination, path, interface, method) else {
            throw PortalError(.callFailed, "\(interface).\(method): out of memory")
        }
        defer { dbus_message_unref(message) }
        var iter = DBusMessageIter()
        dbus_message_iter_init_append(message, &iter)
        for a in arguments where !Self.append(a, to: &iter) {
            throw PortalError(.callFailed, "\(interface).\(method): cannot write its arguments")
        }
        var error = DBusError()
        dbus_error_init(&error)
        guard let reply = dbus_connection_send_with_reply_and_block(connection, message, timeoutMS, &error) else {
            throw PortalError(.callFailed, "\(interface).\(method): \(Self.take(&error))")
        }
        defer { dbus_message_unref(reply) }
        return Self.arguments(of: reply)
    }

    /// Asks the bus to send this connection the signals `rule` matches (waits for its answer).
    func addMatch(_ rule: String) throws(PortalError) {
        var error = DBusError()
        dbus_error_init(&error)
        dbus_bus_add_match(connection, rule, &error)
        if dbus_error_is_set(&error) != 0 { throw PortalError(.callFailed, "AddMatch: \(Self.take(&error))") }
    }

    /// The next signal received, waiting up to `timeoutMS` for one; nil if none came. Other
    /// messages are dropped.
    func nextSignal(timeoutMS: Int32) throws(PortalError) -> Signal? {
        if let s = popSignal() { return s }
        guard dbus_connection_read_write(connection, timeoutMS) != 0 else {
            throw PortalError(.disconnected, "the session bus closed the connection")
        }
        return popSignal()
    }

    private func popSignal() -> Signal? {
        while let message = dbus_connection_pop_message(connection) {
            defer { dbus_message_unref(message) }
            guard dbus_message_get_type(message) == DBUS_MESSAGE_TYPE_SIGNAL else { continue }
            func text(_ p: UnsafePointer<CChar>?) -> String { p.map { String(cString: $0) } ?? "" }
            return Signal(path: text(dbus_message_get_path(message)), interface: text(dbus_message_get_interface(message)),
                          member: text(dbus_message_get_member(message)), arguments: Self.arguments(of: message))
        }
        return nil
    }

    // MARK: - Values

    private static func take(_ error: inout DBusError) -> String {
        defer { dbus_error_free(&error) }
        return error.message.map { String(cString: $0) } ?? "unknown error"
    }

    private static func type(_ code: Character) -> Int32 { Int32(code.asciiValue ?? 0) }

    /// Writes `value`; false if libdbus refused it (out of memory, an invalid string).
    private static func append(_ value: DBusValue, to iter: inout DBusMessageIter) -> Bool {
        func basic<T: BitwiseCopyable>(_ code: Character, _ v: T) -> Bool {
            var v = v
            return dbus_message_iter_append_basic(&iter, type(code), &v) != 0
        }
        func text(_ code: Character, _ s: String) -> Bool {
            s.withCString { p in
                var p: UnsafePointer<CChar>? = p
                return dbus_message_iter_append_basic(&iter, type(code), &p) != 0
            }
        }
        func container(_ code: Character, _ contained: String?, _ items: [DBusValue]) -> Bool {
            var sub = DBusMessageIter()
            let opened = contained.map { dbus_message_iter_open_container(&iter, type(code), $0, &sub) }
                ?? dbus_message_iter_open_container(&iter, type(code), nil, &sub)
            guard opened != 0 else { return false }
            for item in items where !append(item, to: &sub) {
                dbus_message_iter_abandon_container(&iter, &sub)
                return false
            }
            return dbus_message_iter_close_container(&iter, &sub) != 0
        }
        switch value {
        case .byte(let v): return basic("y", v)
        case .bool(let v): return basic("b", dbus_bool_t(v ? 1 : 0))
        case .int32(let v): return basic("i", v)
        case .uint32(let v): return basic("u", v)
        case .int64(let v): return basic("x", v)
        case .uint64(let v): return basic("t", v)
        case .double(let v): return basic("d", v)
        case .string(let s): return text("s", s)
        case .objectPath(let s): return text("o", s)
        case .signature(let s): return text("g", s)
        case .array(let element, let items): return container("a", element, items)
        case .structure(let fields): return container("r", nil, fields)
        case .dictEntry(let k, let v): return container("e", nil, [k, v])
        case .variant(let inner): return container("v", inner.signature, [inner])
        }
    }

    private static func arguments(of message: OpaquePointer) -> [DBusValue] {
        var iter = DBusMessageIter()
        guard dbus_message_iter_init(message, &iter) != 0 else { return [] }
        return values(&iter)
    }

    /// The values from `iter` to the end of its container.
    private static func values(_ iter: inout DBusMessageIter) -> [DBusValue] {
        var out: [DBusValue] = []
        // 0: DBUS_TYPE_INVALID, the end (a cast macro Swift does not import).
        while dbus_message_iter_get_arg_type(&iter) != 0 {
            if let v = value(&iter) { out.append(v) }
            if dbus_message_iter_next(&iter) == 0 { break }
        }
        return out
    }

    /// The value `iter` is at; nil for a type Quicksilver never reads (a file descriptor).
    private static func value(_ iter: inout DBusMessageIter) -> DBusValue? {
        func basic<T: BitwiseCopyable>(_ zero: T) -> T {
            var v = zero
            dbus_message_iter_get_basic(&iter, &v)
            return v
        }
        func text() -> String {
            var p: UnsafePointer<CChar>?
            dbus_message_iter_get_basic(&iter, &p)
            return p.map { String(cString: $0) } ?? ""
        }
        func inner() -> [DBusValue] {
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(&iter, &sub)
            return values(&sub)
        }
        let code = dbus_message_iter_get_arg_type(&iter)
        switch UnicodeScalar(UInt8(truncatingIfNeeded: code)) {
        case "y": return .byte(basic(UInt8(0)))
        case "b": return .bool(basic(dbus_bool_t(0)) != 0)
        case "n": return .int32(Int32(basic(Int16(0))))
        case "q": return .uint32(UInt32(basic(UInt16(0))))
        case "i": return .int32(basic(Int32(0)))
        case "u": return .uint32(basic(UInt32(0)))
        case "x": return .int64(basic(Int64(0)))
        case "t": return .uint64(basic(UInt64(0)))
        case "d": return .double(basic(Double(0)))
        case "s": return .string(text())
        case "o": return .objectPath(text())
        case "g": return .signature(text())
        case "a":
            var element = ""
            if let sig = dbus_message_iter_get_signature(&iter) {
                element = String(String(cString: sig).dropFirst())
                dbus_free(sig)
            }
            return .array(element: element, inner())
        case "r": return .structure(inner())
        case "e":
            let kv = inner()
            guard kv.count == 2 else { return nil }
            return .dictEntry(kv[0], kv[1])
        case "v": return inner().first.map { .variant($0) }
        default: return nil
        }
    }
}
