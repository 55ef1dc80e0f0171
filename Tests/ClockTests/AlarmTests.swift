import Clock
import Testing

@Suite struct AlarmTests {
    private func readable(_ alarm: Alarm, waitingMS: Int32) -> Bool {
        Poll.wait([alarm.fileDescriptor], timeoutMS: waitingMS)[0].readable
    }

    @Test func goesOffOnceAndThenLetsAPollSleep() {
        let alarm = Alarm()
        #expect(!alarm.take() && !readable(alarm, waitingMS: 0), "disarmed at first")
        alarm.set(at: Alarm.nowNS - 1_000_000)
        #expect(readable(alarm, waitingMS: 10_000), "a deadline already passed goes off at once")
        #expect(alarm.take())
        #expect(!alarm.take() && !readable(alarm, waitingMS: 0), "once: taken, the descriptor is quiet again")
    }

    @Test func aNewSettingReplacesTheOldAndNilDisarms() {
        let alarm = Alarm()
        alarm.set(at: Alarm.nowNS - 1_000_000)
        #expect(readable(alarm, waitingMS: 10_000))
        alarm.set(at: Alarm.nowNS + 3_600_000_000_000)
        #expect(!readable(alarm, waitingMS: 0) && !alarm.take(), "the firing not taken went with the old setting")
        alarm.set(at: nil)
        #expect(!alarm.take())
    }
}
