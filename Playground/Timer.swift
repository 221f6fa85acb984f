// Timer: an effect that ticks every 100 ms until `.cancel(id:)` stops it.
//
// Run it:     Playground/run Timer   (about half a second: five ticks of 100 ms)
// In an app:  send `.startTapped` and `.stopTapped` from buttons and show `store.state.ticks`;
//             here the reducer itself stops the timer at the fifth tick, so the output is fixed.

import MiniRedux

struct Stopwatch {
  struct State {
    var isRunning = false
    var ticks = 0
  }
  enum Action {
    case startTapped
    case tick
    case stopTapped
  }
  enum CancelID { case timer }

  @MainActor static func store(stopAfter limit: Int) -> Store<State, Action> {
    return Store(initialState: State()) { state, action in
      switch action {
      case .startTapped:
        state.isRunning = true
        return .run { send in
          let clock = ContinuousClock()
          while true {
            try await clock.sleep(for: .milliseconds(100))
            await send(.tick)
          }
        }
        .cancellable(id: CancelID.timer, cancelInFlight: true)
      case .tick:
        state.ticks += 1
        // As if the user tapped Stop at the right moment. A cancelled timer sends nothing more.
        return state.ticks == limit ? .send(.stopTapped) : .none
      case .stopTapped:
        state.isRunning = false
        return .cancel(id: CancelID.timer)
      }
    }
  }
}

let store = Stopwatch.store(stopAfter: 5)
let subscription = store.subscribe { state in
  print(state.isRunning ? "running" : "stopped", "- ticks:", state.ticks)
}
// `finish()` returns when the timer's effect has ended, which is when it is cancelled.
await store.send(.startTapped).finish()
subscription.cancel()
// stopped - ticks: 0
// running - ticks: 0
// running - ticks: 1
// running - ticks: 2
// running - ticks: 3
// running - ticks: 4
// stopped - ticks: 5
