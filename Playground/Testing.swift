// Testing: a TestStore asserts every state change and every action sent back, and shows a diff.
//
// Run it:     Playground/run Testing
// In a test:  put the `try await store...` lines in a `@Test @MainActor func ... async throws`
//             (or a `@MainActor` XCTest method), where a failing step is recorded at its line; in
//             this script, with no test framework, it throws a `TestStoreFailure`.
//
// The first run passes. Then the script makes two mistakes a test could make, catches the
// failures and prints them: a wrong count (a line diff of the state, `-` expected, `+` actual)
// and a forgotten `receive`.

import MiniRedux

struct Counter {
  struct State: Equatable {
    var count = 0
    var fact: String?
    var isLoading = false
  }
  enum Action: Equatable {
    case incrementTapped
    case factTapped
    case factLoaded(String)
  }
  static func reduce(_ state: inout State, _ action: Action) -> Effect<Action> {
    switch action {
    case .incrementTapped:
      state.count += 1
      return .none
    case .factTapped:
      state.isLoading = true
      let count = state.count
      // A stand-in for a request to a numbers service.
      return .run { send in
        await send(.factLoaded("\(count) is \(count.isMultiple(of: 2) ? "even" : "odd")"))
      }
    case .factLoaded(let fact):
      state.isLoading = false
      state.fact = fact
      return .none
    }
  }
}

// A passing test: each step says how the state changes; the effect's answer must be received.
let store = TestStore(initialState: Counter.State(), Counter.reduce)
try await store.send(.incrementTapped) { $0.count = 1 }
try await store.send(.factTapped) { $0.isLoading = true }
try await store.receive(.factLoaded("1 is odd")) {
  $0.isLoading = false
  $0.fact = "1 is odd"
}
try await store.finish()
print("passed: count \(store.state.count), fact: \(store.state.fact ?? "none")")
// passed: count 1, fact: 1 is odd

// A wrong expectation: the count is 2, not 3.
do {
  try await store.send(.incrementTapped) { $0.count = 3 }
} catch {
  print(error)
}
// Testing/Testing.swift:59: send(.incrementTapped): the state is not as expected (- expected, + actual):
//   Counter.State(
// -   count: 3
// +   count: 2
//     fact: "1 is odd"
//     isLoading: false
//   )

// A forgotten receive: finish() lists the action nobody asserted.
do {
  try await store.send(.factTapped) { $0.isLoading = true }
  try await store.finish()
} catch {
  print(error)
}
// Testing/Testing.swift:74: finish(): not accounted for:
//   .factLoaded("2 is even") received but not asserted
