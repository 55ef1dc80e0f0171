import Portal
import Testing

/// Where the portal will answer, known before the call.
struct RequestPathTests {
    @Test func senderWithoutColonAndDotsAsUnderscores() {
        #expect(RequestPath.predicted(uniqueName: ":1.42", token: "quicksilver1")
            == "/org/freedesktop/portal/desktop/request/1_42/quicksilver1")
        #expect(RequestPath.predicted(uniqueName: ":12.3.4", token: "t") == "/org/freedesktop/portal/desktop/request/12_3_4/t")
    }

    @Test func tokensDifferAndAreObjectPathElements() {
        let tokens = (1...3).map(RequestPath.token)
        #expect(Set(tokens).count == 3)
        for t in tokens {
            #expect(t.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") })
        }
    }
}
