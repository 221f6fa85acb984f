// TimeTravel: record every state, rewind, step forward again, and replay the log from scratch.
//
// The "time travel" that SwiftRex's docs list among Redux's debugging aids: a reducer wrapper
// keeps the history, and because reducers are pure, replaying the recorded actions into a fresh
// store rebuilds the same state.
//
// Run it:     Playground/run TimeTravel
// In an app:  wrap a feature's reducer with `timeTravel` in a debug build, show
//             `store.state.present`, and bind a slider to `.jump(to:)`.

import MiniRedux

/// Every state a feature has been in, the actions between them, and the step shown now.
struct History<State, Action> {
  var states: [State]
  var actions: [Action] = []
  var step = 0
  var present: State { states[step] }
}

enum TimeTravelAction<Action: Sendable>: Sendable {
  case feature(Action)
  case jump(to: Int)
}

/// Wraps `reducer` so the store records its history and can move through it.
func timeTravel<State, Action>(
  _ reducer: @escaping Reducer<State, Action>
) -> Reducer<History<State, Action>, TimeTravelAction<Action>> {
  return { history, action in
    switch action {
    case .feature(let action):
      var state = history.present
      let effect = reducer(&state, action)
      // An action after a rewind starts a new timeline, as typing does after an undo.
      history.states.removeSubrange((history.step + 1)...)
      history.actions.removeSubrange(history.step...)
      history.states.append(state)
      history.actions.append(action)
      history.step += 1
      return effect.map { .feature($0) }
    case .jump(let step):
      history.step = min(max(step, 0), history.states.count - 1)
      return .none
    }
  }
}

struct Editor {
  struct State: Equatable {
    var text = ""
  }
  enum Action {
    case typed(Character)
    case deleteTapped
  }

  @MainActor static func reduce(_ state: inout State, _ action: Action) -> Effect<Action> {
    switch action {
    case .typed(let character):
      state.text.append(character)
    case .deleteTapped:
      if !state.text.isEmpty { state.text.removeLast() }
    }
    return .none
  }
}

let store = Store(
  initialState: History<Editor.State, Editor.Action>(states: [Editor.State()]),
  timeTravel(Editor.reduce))

@MainActor func show(_ label: String) {
  print("\(label) step \(store.state.step): \"\(store.state.present.text)\"")
}

// Record.
for action: Editor.Action in [.typed("c"), .typed("a"), .typed("r"), .deleteTapped, .typed("t")] {
  await store.send(.feature(action)).finish()
  show("\(action) ->")
}
// typed("c") -> step 1: "c"
// typed("a") -> step 2: "ca"
// typed("r") -> step 3: "car"
// deleteTapped -> step 4: "ca"
// typed("t") -> step 5: "cat"

// Rewind, then step forward again through what was recorded.
await store.send(.jump(to: 2)).finish()
show("rewound to")  // rewound to step 2: "ca"
for step in 3...store.state.actions.count {
  await store.send(.jump(to: step)).finish()
  show("replayed")
}
// replayed step 3: "car"
// replayed step 4: "ca"
// replayed step 5: "cat"

// The reducer is a pure function, so the action log alone rebuilds the state.
let replay = Store(initialState: Editor.State(), Editor.reduce)
for action in store.state.actions {
  await replay.send(action).finish()
}
print(
  "fresh store after \(store.state.actions.count) actions: \"\(replay.state.text)\",",
  "same as recorded:", replay.state == store.state.present)
// fresh store after 5 actions: "cat", same as recorded: true

// A new action after a rewind drops the old future.
await store.send(.jump(to: 2)).finish()
await store.send(.feature(.typed("b"))).finish()
show("typed \"b\" after rewinding ->")  // typed "b" after rewinding -> step 3: "cab"
print("steps recorded:", store.state.actions.count)  // steps recorded: 3
