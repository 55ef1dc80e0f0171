import Dispatch
import Foundation

/// The desktop's own file chooser, through the XDG desktop portal on the session bus. Every
/// D-Bus call is made on a queue of its own, so the frame loop never waits: the window keeps
/// drawing while the dialog is open, and the answer is handed over through `take()`, the loop
/// woken by `onAnswer`.
///
/// At once it finds out, on that queue, whether a portal answers: the bus reachable,
/// `org.freedesktop.portal.Desktop` owned or activatable, and its FileChooser interface there
/// (its `version` read within a second, or five when the portal must first be started). A
/// question asked before that is known waits for it; if none answers, the question's answer is
/// `.unavailable`, as every later one is.
public final class PortalFileChooser: FileChooser, @unchecked Sendable {
    private static let portal = "org.freedesktop.portal.Desktop"
    private static let objectPath = "/org/freedesktop/portal/desktop"
    private static let interface = "org.freedesktop.portal.FileChooser"
    private static let request = "org.freedesktop.portal.Request"

    private enum Found { case unknown, yes, no(PortalError) }

    private let queue = DispatchQueue(label: "quicksilver.portal")
    private let lock = NSLock()
    private let parentWindow: String
    private let onAnswer: @Sendable () -> Void
    // Guarded by `lock`.
    private var found = Found.unknown
    private var asking = false
    private var answer: ChooserAnswer?
    // Only touched on `queue`.
    private var connection: BusConnection?
    private var calls = 0

    /// - Parameters:
    ///   - address: the session bus (`SessionBusAddress.find`); nil: there is none.
    ///   - parentWindow: the window the dialog belongs to, as the portal names it ("x11:1a00003").
    ///   - onAnswer: called on the portal's queue when an answer is ready to take.
    public init(address: String?, parentWindow: String, onAnswer: @escaping @Sendable () -> Void) {
        self.parentWindow = parentWindow
        self.onAnswer = onAnswer
        queue.async { [self] in
            let result = Result { () throws(PortalError) in try probe(address) }
            lock.withLock {
                switch result {
                case .success: found = .yes
                case .failure(let why): found = .no(why)
                }
            }
        }
    }

    public var mayAnswer: Bool { lock.withLock { if case .no = found { false } else { true } } }

    public var isAsking: Bool { lock.withLock { asking } }

    /// Why no chooser answers, once that is known.
    public var absence: PortalError? { lock.withLock { if case .no(let why) = found { why } else { nil } } }

    public func ask(_ question: ChooserQuestion) {
        lock.withLock { asking = true }
        queue.async { [self] in
            let result: ChooserAnswer
            if let why = absence {
                result = .unavailable(why)
            } else {
                do throws(PortalError) { result = try converse(question) } catch {
                    if error.kind == .disconnected {
                        // The bus went away: from now on the app asks another way.
                        lock.withLock { found = .no(error) }
                        result = .unavailable(error)
                    } else {
                        result = .failed(error)
                    }
                }
            }
            lock.withLock { answer = result }
            onAnswer()
        }
    }

    public func take() -> ChooserAnswer? {
        lock.withLock {
            defer { if answer != nil { answer = nil; asking = false } }
            return answer
        }
    }

    // MARK: - On the queue

    /// Connects, and checks that a portal with a file chooser is there.
    private func probe(_ address: String?) throws(PortalError) {
        guard let address else { throw PortalError(.noBus, "no session bus (DBUS_SESSION_BUS_ADDRESS is not set)") }
        let bus = try BusConnection(address: address)
        let owned = try bus.call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "NameHasOwner",
                                 [.string(Self.portal)], timeoutMS: 1000) == [.bool(true)]
        if !owned {
            let names = try bus.call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "ListActivatableNames",
                                     [], timeoutMS: 1000).first?.stringArray ?? []
            guard names.contains(Self.portal) else { throw PortalError(.noPortal, "no desktop portal on the session bus") }
        }
        do {
            _ = try bus.call(Self.portal, Self.objectPath, "org.freedesktop.DBus.Properties", "Get",
                             [.string(Self.interface), .string("version")], timeoutMS: owned ? 1000 : 5000)
        } catch {
            throw PortalError(.noPortal, "the desktop portal has no file chooser (\(error.description))")
        }
        connection = bus
    }

    /// Asks the portal and waits for its answer: subscribed first to the Response on the
    /// predicted request path, then the call (whose reply names the request: an older portal's
    /// may differ from the prediction, and is listened to as well).
    private func converse(_ question: ChooserQuestion) throws(PortalError) -> ChooserAnswer {
        guard let bus = connection else { throw PortalError(.disconnected, "the session bus closed the connection") }
        calls += 1
        let token = RequestPath.token(calls)
        var paths = [RequestPath.predicted(uniqueName: bus.uniqueName, token: token)]
        try bus.addMatch(Self.responseRule(paths[0]))
        let reply = try bus.call(Self.portal, Self.objectPath, Self.interface, question.method,
                                 [.string(parentWindow), .string(question.title), question.options(token: token)], timeoutMS: 30_000)
        if case .objectPath(let handle)? = reply.first, handle != paths[0] {
            try bus.addMatch(Self.responseRule(handle))
            paths.append(handle)
        }
        while true {
            do {
                guard let signal = try bus.nextSignal(timeoutMS: 1000) else { continue }
                guard signal.interface == Self.request, signal.member == "Response", paths.contains(signal.path),
                      case .uint32(let response)? = signal.arguments.first else { continue }
                return ChooserAnswer.from(response: response, results: signal.arguments.dropFirst().first ?? .vardict([]))
            } catch {
                connection = nil
                throw error
            }
        }
    }

    private static func responseRule(_ path: String) -> String {
        "type='signal',sender='\(portal)',interface='\(request)',member='Response',path='\(path)'"
    }
}
