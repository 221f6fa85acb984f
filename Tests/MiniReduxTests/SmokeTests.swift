import Testing

@testable import MiniRedux

@MainActor
@Suite("Smoke")
struct SmokeTests {
  enum Action: Sendable { case start, done, tick(Int) }

  @Test("a .run effect sends back and finish() waits for it")
  func roundTrip() async {
    let store = Store<[String], Action>(initialState: []) { state, action in
      switch action {
      case .start:
        state.append("start")
        return .run { send in await send(.done) }
      case .done:
        state.append("done")
        return .none
      case .tick(let n):
        state.append("tick \(n)")
        return .none
      }
    }
    await store.send(.start).finish()
    #expect(store.state == ["start", "done"])
    #expect(store.inFlightEffectCount == 0)
  }
}
