import Foundation

/// A private session bus on the test's X server with the real XDG desktop portal and its GTK
/// backend on it (Debian's `xdg-desktop-portal`, `xdg-desktop-portal-gtk`), as a GNOME session
/// has them: what the window's file chooser asks. The portal picks its backend by the
/// `UseIn=gnome` of gtk.portal against `XDG_CURRENT_DESKTOP`. Both are started here, not by the
/// bus, and the bus starts nothing itself (a configuration with an empty services folder): the
/// document portal it would start mounts a FUSE file system in `XDG_RUNTIME_DIR` and outlives
/// the bus, and the file chooser of a program outside a sandbox needs none of them. Everything
/// lives in a scratch folder: the bus socket, `XDG_RUNTIME_DIR`, and a `HOME` of its own (GTK
/// keeps its recent files there).
final class PortalSession {
    static let frontend = ["/usr/libexec/xdg-desktop-portal", "/usr/lib/xdg-desktop-portal"].first(where: FileManager.default.isExecutableFile)
    static let backend = ["/usr/libexec/xdg-desktop-portal-gtk", "/usr/lib/xdg-desktop-portal-gtk"]
        .first(where: FileManager.default.isExecutableFile)

    /// Whether the programs are installed (`make test` installs them).
    static var installed: Bool {
        frontend != nil && backend != nil && which("dbus-daemon") != nil && which("gdbus") != nil && canStartXServer
    }

    /// The bus: a session bus that starts no services.
    private static func configuration(services: String) -> String {
        """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>session</type>
          <listen>unix:tmpdir=/tmp</listen>
          <auth>EXTERNAL</auth>
          <servicedir>\(services)</servicedir>
          <policy context="default">
            <allow send_destination="*" eavesdrop="true"/>
            <allow eavesdrop="true"/>
            <allow own="*"/>
          </policy>
        </busconfig>
        """
    }

    /// What a client of this bus runs with (the X display's, the bus's, the runtime folder).
    let environment: [String: String]
    private let bus: Launched
    private var services: [Launched] = []

    init(on x: XServer) throws {
        let dir = try temporaryFolder()
        let runtime = dir + "/runtime", home = dir + "/home", serviceFolder = dir + "/services"
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        for folder in [home, serviceFolder] { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false) }
        try Self.configuration(services: serviceFolder).write(toFile: dir + "/bus.conf", atomically: true, encoding: .utf8)
        let address = "unix:path=\(dir)/bus"
        // GSETTINGS_BACKEND=memory: GTK's settings without dconf, which this bus does not start.
        let env = x.environment.merging(["DBUS_SESSION_BUS_ADDRESS": address, "XDG_CURRENT_DESKTOP": "GNOME", "XDG_RUNTIME_DIR": runtime,
                                         "HOME": home, "GTK_A11Y": "none", "NO_AT_BRIDGE": "1", "GSETTINGS_BACKEND": "memory"]) { $1 }
        bus = try Launched(which("dbus-daemon") ?? "dbus-daemon", ["--config-file=\(dir)/bus.conf", "--address=\(address)", "--nofork",
                                                                   "--print-address=1"], environment: env)
        environment = env
        guard eventually(timeout: 30, { bus.stdout.contains(address) }) else {
            throw HarnessError("dbus-daemon did not start: \(bus.stderr)")
        }
        // The backend first: the portal asks it for nothing until a dialog is wanted, but a
        // question asked before it is there fails.
        services.append(try Launched(Self.backend ?? "", [], environment: env))
        guard eventually(timeout: 60, { hasOwner("org.freedesktop.impl.portal.desktop.gtk") }) else {
            throw HarnessError("xdg-desktop-portal-gtk did not start: \(services[0].stderr)")
        }
        services.append(try Launched(Self.frontend ?? "", [], environment: env))
        guard eventually(timeout: 60, { fileChooserVersion() != nil }) else {
            throw HarnessError("xdg-desktop-portal offers no FileChooser: \(services[1].stderr)")
        }
    }

    /// What the portal and its backend said on stderr.
    var log: String { services.map(\.stderr).joined(separator: "\n") }

    private func gdbus(_ args: [String]) -> Finished? {
        try? runProgram(which("gdbus") ?? "gdbus", ["call", "--session"] + args, environment: environment, timeout: 20)
    }

    private func hasOwner(_ name: String) -> Bool {
        gdbus(["--dest", "org.freedesktop.DBus", "--object-path", "/org/freedesktop/DBus", "--method", "org.freedesktop.DBus.NameHasOwner",
               name])?.stdout.contains("true") == true
    }

    /// The FileChooser interface's version, once the portal answers.
    func fileChooserVersion() -> String? {
        guard let r = gdbus(["--dest", "org.freedesktop.portal.Desktop", "--object-path", "/org/freedesktop/portal/desktop",
                             "--method", "org.freedesktop.DBus.Properties.Get", "org.freedesktop.portal.FileChooser", "version"]),
              r.status == 0 else { return nil }
        return r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    deinit {
        // SIGKILL: a child of the test runner starts with its signals blocked, SIGTERM among them,
        // and GLib's daemons never unblock it. The services first, then the bus.
        for s in services.reversed() + [bus] {
            kill(s.pid, SIGKILL)
            _ = s.wait(timeout: 10)
        }
    }
}
