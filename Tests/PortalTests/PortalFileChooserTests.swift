import Foundation
import Portal
import Testing

/// The real chooser where no portal answers: it finds that out on its own thread, and a question
/// then comes back `.unavailable` (the app asks in the status strip). With a private bus that
/// starts nothing, this exercises the libdbus calls too (NameHasOwner, ListActivatableNames).
@Suite(.serialized) struct PortalFileChooserTests {
    /// Asks `chooser` and waits (up to 30 s) for its answer.
    private func answer(of chooser: PortalFileChooser) -> ChooserAnswer? {
        chooser.ask(ChooserQuestion(.save, title: "Save", name: "a.ora"))
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            if let a = chooser.take() { return a }
            usleep(10_000)
        }
        return nil
    }

    @Test func noBusNoChooser() {
        for address in [nil, "unix:path=/nonexistent/quicksilver-test-bus"] {
            let chooser = PortalFileChooser(address: address, parentWindow: "", onAnswer: {})
            guard case .unavailable(let why)? = answer(of: chooser) else {
                Issue.record("no bus at \(address ?? "nil"): unavailable")
                continue
            }
            #expect(why.kind == .noBus)
            #expect(!chooser.mayAnswer && !chooser.isAsking)
        }
    }

    static let dbusDaemon = ["/usr/bin/dbus-daemon", "/bin/dbus-daemon"].first(where: FileManager.default.isExecutableFile)

    @Test(.enabled(if: dbusDaemon != nil, "needs dbus-daemon")) func aBusWithoutAPortalHasNoChooser() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("qs-portal-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir + "/services", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try """
            <busconfig><type>session</type><listen>unix:tmpdir=/tmp</listen><auth>EXTERNAL</auth>
            <servicedir>\(dir)/services</servicedir>
            <policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy>
            </busconfig>
            """.write(toFile: dir + "/bus.conf", atomically: true, encoding: .utf8)
        let address = "unix:path=\(dir)/bus"
        var pid = pid_t()
        let args: [String] = [Self.dbusDaemon ?? "", "--config-file=\(dir)/bus.conf", "--address=\(address)", "--nofork"]
        let argv: [UnsafeMutablePointer<CChar>?] = args.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        #expect(posix_spawn(&pid, Self.dbusDaemon ?? "", nil, nil, argv, environ) == 0)
        defer {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
        let deadline = Date().addingTimeInterval(30)
        while !FileManager.default.fileExists(atPath: dir + "/bus") && Date() < deadline { usleep(10_000) }
        let chooser = PortalFileChooser(address: address, parentWindow: "x11:1", onAnswer: {})
        guard case .unavailable(let why)? = answer(of: chooser) else {
            Issue.record("a bus without a portal: unavailable")
            return
        }
        #expect(why.kind == .noPortal && why.description == "no desktop portal on the session bus", "\(why)")
    }
}
