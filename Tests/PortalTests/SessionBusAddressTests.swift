import Portal
import Testing

/// The session bus, found without ever starting one.
struct SessionBusAddressTests {
    @Test func theEnvironmentFirst() {
        #expect(SessionBusAddress.find(environment: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/x", "XDG_RUNTIME_DIR": "/run/user/1"],
                                       exists: { _ in true }) == "unix:path=/x")
    }

    @Test func thenTheUsersBusSocket() {
        #expect(SessionBusAddress.find(environment: ["XDG_RUNTIME_DIR": "/run/user/1000"], exists: { $0 == "/run/user/1000/bus" })
            == "unix:path=/run/user/1000/bus")
        #expect(SessionBusAddress.find(environment: ["XDG_RUNTIME_DIR": "/tmp/a b"], exists: { _ in true }) == "unix:path=/tmp/a%20b/bus")
    }

    @Test func elseNoneRatherThanAutolaunch() {
        #expect(SessionBusAddress.find(environment: ["XDG_RUNTIME_DIR": "/run/user/1000"], exists: { _ in false }) == nil)
        #expect(SessionBusAddress.find(environment: ["DBUS_SESSION_BUS_ADDRESS": ""], exists: { _ in false }) == nil)
        #expect(SessionBusAddress.find(environment: [:], exists: { _ in true }) == nil)
    }
}
