// The code samples of the doc comments and README.md, compiled inside real reducers.
//
// Each region starts with a `// Sample:` line. DocSampleTests checks that every ```swift block
// in Sources/ and README.md appears, line by line and in order, in one region here, in one
// Playground script, in .ci/check-combine (which compiles the Combine code), or in
// .ci/check-package (which builds the README's Package.swift samples).
//
// The samples use only the public API: .ci/check-isolation compiles this file with a plain
// `import MiniRedux`, under Xcode's newer isolation defaults, as a user's own code would be.
import Testing

@testable import MiniRedux

enum DocStubs {
  struct User: Sendable {}
  struct API: Sendable {
    func user() async throws -> User { User() }
    func search(_ query: String) async throws -> [String] { [query] }
  }
  static let api = API()
  static func loadQuote() async throws -> String { "Simplicity" }
  static func load() async throws -> Int { 1 }
  static func save() async throws {}
}

enum QuoteAction: Sendable { case getQuoteTapped, quoteLoaded(String) }

enum DocAction: Sendable {
  case loadUser, userLoaded(DocStubs.User), loadFailed(String)
  case saveTapped, saved, delegate(Delegate)
  case started, loaded(Int)
  case queryChanged(String), results([String])
  case stopTapped, received(Int)
  case startTimer, refresh, onAppear
  enum Delegate: Sendable { case saved }
}

@MainActor
@Suite("Doc samples")
struct DocSamples {
  // Sample: Effect type
  @Test("the Effect type sample compiles and runs")
  func effectType() async {
    let loadQuote = DocStubs.loadQuote
    enum CancelID { case load }

    let store = Store<String, QuoteAction>(initialState: "") { state, action in
      switch action {
      case .getQuoteTapped:
        state = "Loading..."
        return .run { send in
          let quote = try await loadQuote()
          await send(.quoteLoaded(quote))
        } catch: { error, send in
          await send(.quoteLoaded("Error: \(error)"))
        }
        .cancellable(id: CancelID.load, cancelInFlight: true)
      case .quoteLoaded(let quote):
        state = quote
        return .none
      }
    }
    await store.send(.getQuoteTapped).finish()
    #expect(store.state == "Simplicity")
  }

  /// The fragments below are reducer cases; this runs each one once.
  func reduce(
    _ body: @escaping @MainActor (inout [String], DocAction) -> Effect<DocAction>?
  ) -> Store<[String], DocAction> {
    Store(initialState: []) { state, action in body(&state, action) ?? .none }
  }

  // Sample: Effect.run
  @Test("the run, send, merge and concatenate samples compile")
  func creating() async {
    let api = DocStubs.api
    let load = DocStubs.load
    let save = DocStubs.save
    let store = reduce { state, action in
      switch action {
      case .loadUser:
        return .run { send in
          await send(.userLoaded(try await api.user()))
        } catch: { error, send in
          await send(.loadFailed("\(error)"))
        }
      // Sample: Effect.send
      case .saveTapped:
        return .send(.delegate(.saved))
      // Sample: Effect.merge
      case .started:
        return .merge(.send(.started), .run { send in await send(.loaded(try await load())) })
      // Sample: Effect.concatenate
      case .refresh:
        return .concatenate(.run { _ in try await save() }, .send(.saved))
      default:
        state.append("\(action)")
        return nil
      }
    }
    await store.send(.loadUser).finish()
    await store.send(.saveTapped).finish()
    await store.send(.refresh).finish()
    #expect(store.state.count == 3)
    #expect(store.state.last == "saved")
  }

  // Sample: Effect.cancellable
  @Test("the cancellable sample compiles")
  func cancellable() async {
    struct SearchState { var query = "" }
    let api = DocStubs.api
    enum CancelID { case search }

    let store = Store<SearchState, DocAction>(initialState: SearchState()) { state, action in
      switch action {
      case .queryChanged(let query):
        state.query = query
        return .run { send in await send(.results(try await api.search(query))) }
          .cancellable(id: CancelID.search, cancelInFlight: true)
      default:
        return .none
      }
    }
    await store.send(.queryChanged("a")).finish()
    #expect(store.state.query == "a")
  }

  // Sample: Effect.cancel
  @Test("the cancel sample compiles")
  func cancel() {
    enum CancelID { case timer }
    let store = reduce { _, action in
      switch action {
      case .stopTapped:
        return .cancel(id: CancelID.timer)
      default:
        return nil
      }
    }
    store.send(.stopTapped)
    #expect(store.state.isEmpty)
  }

  // Sample: Effect.debounce
  @Test("the debounce sample compiles")
  func debounce() {
    let api = DocStubs.api
    enum CancelID { case search }
    let store = reduce { _, action in
      switch action {
      case .queryChanged(let query):
        return .run { send in await send(.results(try await api.search(query))) }
          .debounce(id: CancelID.search, for: .milliseconds(300))
      default:
        return nil
      }
    }
    store.send(.queryChanged("a")).cancel()
  }

  // Sample: Send
  @Test("the Send sample compiles")
  func send() async {
    let values = AsyncStream<Int> { continuation in
      continuation.yield(7)
      continuation.finish()
    }
    let store = reduce { state, action in
      switch action {
      case .onAppear:
        return .run { send in
          for await value in values {
            await send(.received(value))
          }
        }
      default:
        state.append("\(action)")
        return nil
      }
    }
    await store.send(.onAppear).finish()
    #expect(store.state == ["received(7)"])
  }

  // Sample: Store type
  @Test("the Store type sample compiles and runs")
  func storeType() {
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

    let store = Counter.store()
    store.send(.incrementTapped)
    print(store.state.count)  // 1
    #expect(store.state.count == 1)

    // Sample: Store.subscribe
    let subscription = store.subscribe { state in print("count:", state.count) }
    store.send(.incrementTapped)  // prints "count: 1"
    subscription.cancel()
    #expect(store.state.count == 2)
  }

  // Sample: Store.init, send and StoreTask
  @Test("the init, send and StoreTask samples compile")
  func initAndSend() async {
    enum Feed {
      struct State { var items: [Int] = [] }
      enum Action: Sendable { case load, refresh, startTimer }
      static func reduce(_ state: inout State, _ action: Action) -> Effect<Action> {
        state.items.append(state.items.count)
        return action == .startTimer ? .run { _ in try await Task.sleep(for: .seconds(60)) } : .none
      }
    }
    let store = Store(initialState: Feed.State(), initialAction: .load, Feed.reduce)
    await store.send(.refresh).finish()
    let timer = store.send(.startTimer)
    // Later, when the screen that started it goes away:
    timer.cancel()
    await timer.finish()
    #expect(store.state.items == [0, 1, 2])
  }

  // Sample: Effect.map and Store.scope
  @Test("the map and scope samples compile")
  func composition() {
    enum Counter {
      struct State { var count = 0 }
      enum Action: Sendable { case incrementTapped }
    }
    struct AppState { var counter = Counter.State() }
    enum AppAction: Sendable { case counter(Counter.Action) }
    let counterReducer: (inout Counter.State, Counter.Action) -> Effect<Counter.Action> = {
      state, _ in
      state.count += 1
      return .none
    }
    let appStore = Store<AppState, AppAction>(initialState: AppState()) { state, action in
      switch action {
      case .counter(let action):
        return counterReducer(&state.counter, action).map(AppAction.counter)
      }
    }

    let counter: Store<Counter.State, Counter.Action> =
      appStore.scope(state: \.counter, action: AppAction.counter)
    counter.send(.incrementTapped)  // reduced by the app's reducer as .counter(.incrementTapped)
    #expect(appStore.state.counter.count == 1)
  }
}
