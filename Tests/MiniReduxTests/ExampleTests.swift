import Testing

@testable import MiniRedux

/// The examples of the original MiniRedux README (github.com/ba01ei/swift-mini-redux), the library
/// we descend from, as tests.
@MainActor
@Suite("Examples from the original MiniRedux README")
struct ExampleTests {
  struct Counter {
    struct State { var count = 0 }
    enum Action { case incrementTapped, decrementTapped }

    @MainActor static func store() -> Store<State, Action> {
      Store(initialState: State()) { state, action in
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
  }

  @Test("Counter: taps change the count, synchronously")
  func counter() {
    let store = Counter.store()
    store.send(.incrementTapped)
    store.send(.incrementTapped)
    store.send(.decrementTapped)
    #expect(store.state.count == 1)
  }

  /// RandomQuote with a fake loader: each request waits at its own gate, so the test decides
  /// which answer arrives first.
  struct RandomQuote {
    struct State { var text = "" }
    enum Action: Sendable { case getQuoteTapped, quoteLoaded(String) }

    @MainActor static func store(loader: @escaping @Sendable (Int) async throws -> String)
      -> Store<State, Action>
    {
      var requests = 0
      return Store(initialState: State()) { state, action in
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
  func randomQuote() async {
    // Given: a loader whose first answer is slow and ignores cancellation.
    let first = Gate()
    let second = Gate()
    let store = RandomQuote.store { request in
      await (request == 1 ? first : second).wait()
      return "quote \(request)"
    }

    // When: two quick taps; the second answer arrives, then the stale first one.
    let tap1 = store.send(.getQuoteTapped)
    let tap2 = store.send(.getQuoteTapped)
    #expect(store.state.text == "Loading...")
    second.open()
    await tap2.finish()
    first.open()
    await tap1.finish()

    // Then
    #expect(store.state.text == "quote 2")
    #expect(store.inFlightEffectCount == 0)
  }

  @Test("RandomQuote: a loader error becomes a quote-loaded action")
  func randomQuoteError() async {
    struct Offline: Error {}
    let store = RandomQuote.store { _ in throw Offline() }
    await store.send(.getQuoteTapped).finish()
    #expect(store.state.text == "Error: Offline()")
  }

  @Test("initialAction: a store that loads as it is created")
  func initialAction() async {
    enum Action: Sendable { case initialized, loaded(Int) }
    let store = Store<[Int], Action>(initialState: [], initialAction: .initialized) {
      state, action in
      switch action {
      case .initialized:
        return .run { send in await send(.loaded(42)) }
      case .loaded(let value):
        state.append(value)
        return .none
      }
    }
    // Then: reduced during init, its effect already in flight.
    #expect(store.inFlightEffectCount == 1)
    await eventually { store.state == [42] && store.inFlightEffectCount == 0 }
  }
}
