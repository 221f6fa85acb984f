// Navigation: a sheet and a stack of screens whose effects end when they are dismissed or popped.
//
// Run it:     Playground/run Navigation   (about half a second: three ticks and a load, 100 ms each)
// In an app:  present the sheet while `store.state.timer` is there and push a screen for each
//             element of `store.state.path`, giving each view the optional `store.scope` of its
//             child; dismissing or popping sends an action that only changes the state.
//
// `ifLet` embeds the sheet and `forEach` the screens. Neither the app nor the children cancel
// anything by hand: when the sheet's state becomes `nil`, or a screen leaves the path, its effects
// are cancelled in that same `send`, so a dead timer never ticks and a popped screen's load never
// lands.

import MiniRedux

/// The sheet: a timer that ticks every 100 ms for as long as it runs.
struct TimerSheet {
  struct State: Equatable {
    var ticks = 0
  }
  enum Action {
    case onAppear
    case tick
  }

  @MainActor static func reduce(_ sheet: inout State, _ action: Action) -> Effect<Action> {
    switch action {
    case .onAppear:
      return .run { send in
        while true {
          try await Task.sleep(for: .milliseconds(100))
          await send(.tick)
        }
      }
    case .tick:
      sheet.ticks += 1
      return .none
    }
  }
}

/// A pushed screen: it loads its title from a "server" that answers after 100 ms.
struct Screen {
  struct State: Equatable, Identifiable {
    let id: Int
    var title: String?
  }
  enum Action {
    case onAppear
    case loaded(String)
  }

  @MainActor static func reduce(_ screen: inout State, _ action: Action) -> Effect<Action> {
    switch action {
    case .onAppear:
      let id = screen.id
      return .run { send in
        try await Task.sleep(for: .milliseconds(100))
        await send(.loaded("Screen \(id)"))
      }
    case .loaded(let title):
      screen.title = title
      return .none
    }
  }
}

/// The app: an optional sheet and a stack of screens. Its own reducer only changes the state.
enum App {
  struct State {
    var timer: TimerSheet.State?
    var path: [Screen.State] = []
  }
  enum Action {
    case showTimer
    case dismissTimer
    case timer(TimerSheet.Action)
    case push(Int)
    case popTo(count: Int)
    case path(id: Int, Screen.Action)
  }

  @MainActor static func core(_ state: inout State, _ action: Action) -> Effect<Action> {
    switch action {
    case .showTimer:
      state.timer = TimerSheet.State()
    case .dismissTimer:
      state.timer = nil
    case .push(let id):
      state.path.append(Screen.State(id: id))
    case .popTo(let count):
      state.path.removeLast(state.path.count - count)
    case .timer, .path:
      break
    }
    return .none
  }

  static let reducer = Reduce(core)
    .ifLet(\.timer, action: Action.timer, child: TimerSheet.reduce)
    .forEach(\.path, action: Action.path, child: Screen.reduce)
}

extension Store where State == App.State, Action == App.Action {
  /// What a pushed view gets: a store of its screen while the screen is on the stack, else nil.
  func screen(id: Int) -> Store<Screen.State, Screen.Action>? {
    scope(state: { $0.path.first { $0.id == id } }, action: { .path(id: id, $0) })
  }
}

func show(_ path: [Screen.State]) -> String {
  path.map { "\($0.id) \($0.title.map { "(\($0))" } ?? "loading")" }.joined(separator: ", ")
}

let app = Store(initialState: App.State(), App.reducer)

// A sheet: its timer runs until the sheet is dismissed. The listener plays the user, who swipes
// the sheet down after the third tick.
app.send(.showTimer)
let timer = app.scope(state: \.timer, action: App.Action.timer)!
let subscription = timer.subscribe { sheet in
  print("ticks:", sheet.ticks)  // ticks: 0
  if sheet.ticks == 3 { app.send(.dismissTimer) }
}
let ticking = timer.send(.onAppear)
// `finish()` returns when the timer's effect ends, and only the dismissal ends it.
await ticking.finish()  // ticks: 1, ticks: 2, ticks: 3
subscription.cancel()
print("sheet:", app.state.timer == nil ? "dismissed" : "presented")  // sheet: dismissed
print("timer cancelled:", ticking.isCancelled)  // timer cancelled: true
print("the sheet's store keeps its last state:", timer.state.ticks, "ticks")  // ... 3 ticks

// A stack three screens deep, each with a load in flight.
var screens: [Int: Store<Screen.State, Screen.Action>] = [:]
var loads: [Int: StoreTask] = [:]
for id in 1...3 {
  app.send(.push(id))
  screens[id] = app.screen(id: id)
  loads[id] = screens[id]!.send(.onAppear)
}
print("stack:", show(app.state.path))  // stack: 1 loading, 2 loading, 3 loading

// Back to the first screen: the loads of the two popped screens are cancelled in this send.
app.send(.popTo(count: 1))
print("stack:", show(app.state.path))  // stack: 1 loading
print("loads of 2 and 3 cancelled:", loads[2]!.isCancelled, loads[3]!.isCancelled)  // true true

await loads[1]!.finish()
print("load of 1 cancelled:", loads[1]!.isCancelled)  // load of 1 cancelled: false
print("stack:", show(app.state.path))  // stack: 1 (Screen 1)

// A popped screen's store keeps its last state; scoping to it again finds nothing.
print("store of screen 3:", show([screens[3]!.state]))  // store of screen 3: 3 loading
print("screen 3 now:", app.screen(id: 3) == nil ? "nil" : "a store")  // screen 3 now: nil
