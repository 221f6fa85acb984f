// The code samples of the doc comments and README.md, compiled inside real reducers.
//
// Each region starts with a `// Sample:` line. DocSampleTests checks that every ```swift block
// in Sources/ and README.md appears, line by line and in order, in one region here, in one
// Playground script, or in .ci/check-combine (which compiles the Combine code).
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
    #expect(store.inFlightEffectCount == 0)
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

/// The samples of the TestStore doc comments, README.md and the DocC article.
@MainActor
@Suite("Doc samples: TestStore")
struct TestStoreDocSamples {
  enum Counter {
    struct State: Equatable {
      var count = 0
      var fact: String?
      var isLoading = false
    }
    enum Action: Equatable, Sendable {
      case incrementTapped, factTapped
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

  // Sample: TestStore, TestStore.init, send, finish
  @Test func incrementAndLoadFact() async throws {
    let store = TestStore(initialState: Counter.State(), Counter.reduce)
    store.timeout = patience
    try await store.send(.incrementTapped) { $0.count = 1 }
    try await store.send(.factTapped) { $0.isLoading = true }
    try await store.receive(.factLoaded("1 is odd")) {
      $0.isLoading = false
      $0.fact = "1 is odd"
    }
    try await store.finish()
  }

  // Sample: TestStore.receive with a closure, skipReceivedActions, Exhaustivity, receive
  @Test("the receive, skipReceivedActions and Exhaustivity samples compile and pass")
  func receiveAndExhaustivity() async throws {
    let store = TestStore(initialState: Counter.State(count: 1), Counter.reduce)
    store.timeout = patience
    try await store.send(.factTapped) { $0.isLoading = true }
    try await store.receive({ if case .factLoaded = $0 { true } else { false } }) {
      $0.isLoading = false
      $0.fact = "1 is odd"
    }
    let task = try await store.send(.factTapped) { $0.isLoading = true }
    await task.finish()
    store.skipReceivedActions()
    store.exhaustivity = .off
    try await store.send(.factTapped)
    try await store.receive(.factLoaded("1 is odd")) { $0.fact = "1 is odd" }
    try await store.finish()
  }

  // Sample: TestStoreFailure
  @Test("the TestStoreFailure sample compiles, and catches the failure")
  func failure() async throws {
    let store = TestStore(initialState: Counter.State(), Counter.reduce)
    store.timeout = patience
    var caught: TestStoreFailure?
    do {
      try await store.send(.incrementTapped) { $0.count = 2 }
    } catch let failure as TestStoreFailure {
      print(failure)
      caught = failure
    }
    #expect(caught?.message.contains("+   count: 1") == true)
  }

  // Sample: Testing a feature: composition
  @Test("the composition sample compiles and passes")
  func composition() async throws {
    let gate = Gate()
    let store = TestStore(initialState: Todos.State(), Todos.reducer(gate))
    store.timeout = patience
    try await store.send(.add("milk")) {
      $0.rows = [Todos.Row(id: 0, title: "milk")]
      $0.nextID = 1
    }
    try await store.send(.row(id: 0, .deleteTapped))
    try await store.receive(.row(id: 0, .delegate(.delete))) { $0.rows = [] }
    try await store.finish()
  }

  // Sample: Testing a feature: time
  @Test("the manual clock sample compiles and passes")
  func searchWithManualClock() async throws {
    let clock = TestClock()
    let store = TestStore(
      initialState: Search.State(),
      Search.reducer(clock: clock) { query in ["\(query)!"] })
    store.timeout = patience
    try await store.send(.queryChanged("b")) { $0.query = "b" }
    try await store.send(.queryChanged("ba")) { $0.query = "ba" }
    await eventually { clock.sleeperCount == 1 }
    clock.advance(by: .milliseconds(300))
    try await store.receive(.resultsLoaded(["ba!"])) { $0.results = ["ba!"] }
    try await store.finish()
  }
}

/// Search as you type, debounced on a clock the caller passes (also tested in TestStoreTests).
enum Search {
  struct State: Equatable {
    var query = ""
    var results: [String] = []
  }
  enum Action: Equatable, Sendable {
    case queryChanged(String)
    case resultsLoaded([String])
  }
  enum CancelID { case search }

  static func reducer(
    clock: some Clock<Duration>,
    search: @escaping @Sendable (String) async throws -> [String]
  ) -> @MainActor (inout State, Action) -> Effect<Action> {
    { state, action in
      switch action {
      case .queryChanged(let query):
        state.query = query
        return .run { send in await send(.resultsLoaded(try await search(query))) }
          .debounce(id: CancelID.search, for: .milliseconds(300), clock: clock)
      case .resultsLoaded(let results):
        state.results = results
        return .none
      }
    }
  }
}
