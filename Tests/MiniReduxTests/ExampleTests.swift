import Testing

@testable import MiniRedux

/// The examples from the original MiniRedux README (github.com/ba01ei/swift-mini-redux), tested
/// with a TestStore: every state change and every action sent back is asserted.
@MainActor
@Suite("Examples from the original MiniRedux README")
struct ExampleTests {
  struct Counter {
    struct State: Equatable { var count = 0 }
    enum Action: Equatable { case incrementTapped, decrementTapped }

    static func reduce(_ state: inout State, _ action: Action) -> Effect<Action> {
      switch action {
      case .incrementTapped:
        state.count += 1
        return .none
      case .decrementTapped:
        state.count -= 1
        return .none
      }
    }
  }

  @Test("Counter: taps change the count, synchronously")
  func counter() async throws {
    let store = TestStore(initialState: Counter.State(), Counter.reduce)
    store.timeout = patience
    try await store.send(.incrementTapped) { $0.count = 1 }
    try await store.send(.incrementTapped) { $0.count = 2 }
    try await store.send(.decrementTapped) { $0.count = 1 }
    try await store.finish()
  }

  /// RandomQuote with a fake loader: each request waits at its own gate, so the test decides
  /// which answer arrives first.
  struct RandomQuote {
    struct State: Equatable { var text = "" }
    enum Action: Equatable, Sendable { case getQuoteTapped, quoteLoaded(String) }

    @MainActor static func reducer(loader: @escaping @Sendable (Int) async throws -> String)
      -> @MainActor (inout State, Action) -> Effect<Action>
    {
      var requests = 0
      return { state, action in
        switch action {
        case .getQuoteTapped:
          state.text = "Loading..."
          requests += 1
          let request = requests
          return .run { send in
            do {
              await send(.quoteLoaded(try await loader(request)))
            } catch {
              await send(.quoteLoaded("Error: \(error)"))
            }
          }
          .cancellable(id: "load", cancelInFlight: true)
        case .quoteLoaded(let text):
          state.text = text
          return .none
        }
      }
    }
  }

  @Test("RandomQuote: a second tap cancels the first request; only the last quote lands")
  func randomQuote() async throws {
    // Given: a loader whose first answer is slow and ignores cancellation.
    let first = Gate()
    let second = Gate()
    let store = TestStore(
      initialState: RandomQuote.State(),
      RandomQuote.reducer { request in
        await (request == 1 ? first : second).wait()
        return "quote \(request)"
      })
    store.timeout = patience

    // When: two quick taps; the second answer arrives, then the stale first one.
    try await store.send(.getQuoteTapped) { $0.text = "Loading..." }
    try await store.send(.getQuoteTapped)
    second.open()
    try await store.receive(.quoteLoaded("quote 2")) { $0.text = "quote 2" }
    first.open()

    // Then: the first request's answer never lands (finish would list it).
    try await store.finish()
  }

  @Test("RandomQuote: a loader error becomes a quote-loaded action")
  func randomQuoteError() async throws {
    struct Offline: Error {}
    let store = TestStore(
      initialState: RandomQuote.State(), RandomQuote.reducer { _ in throw Offline() })
    store.timeout = patience
    try await store.send(.getQuoteTapped) { $0.text = "Loading..." }
    try await store.receive(.quoteLoaded("Error: Offline()")) { $0.text = "Error: Offline()" }
    try await store.finish()
  }

  @Test("initialAction: a store that loads as it is created")
  func initialAction() async throws {
    enum Action: Equatable, Sendable { case initialized, loaded(Int) }
    let store = TestStore(initialState: [Int](), initialAction: Action.initialized) {
      state, action in
      switch action {
      case .initialized:
        return .run { send in await send(.loaded(42)) }
      case .loaded(let value):
        state.append(value)
        return .none
      }
    }
    store.timeout = patience
    // Then: reduced during init, its effect already started; its action arrives.
    try await store.receive(.loaded(42)) { $0 = [42] }
    try await store.finish()
  }
}
