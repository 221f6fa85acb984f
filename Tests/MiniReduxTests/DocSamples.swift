// The code samples of the doc comments, README.md and the DocC articles, compiled inside real
// reducers.
//
// Each region starts with a `// Sample:` line. DocSampleTests checks that every ```swift block
// in Sources/ and README.md appears, line by line and in order, in one region here, in one
// Playground script, in .ci/check-combine (which compiles the Combine code), or in
// .ci/check-package (which builds the README's Package.swift samples).
//
// The samples use only the public API: .ci/check-isolation compiles this file with a plain
// `import MiniRedux`, under Xcode's newer isolation defaults, as a user's own code would be.
//
// Samples await `finish()` as users write it; each suite's time limit cancels a test whose effects
// never end (its `finish()` then returns), so that it fails instead of hanging the run.
import Observation
import Testing

@testable import MiniRedux

// NB: The samples' views compile only where SwiftUI exists; their expressions run everywhere.
#if canImport(SwiftUI)
  import SwiftUI
#endif

/// A stand-in for swift-dependencies' `withDependencies`, with its shape: a task-local set of
/// values, changed for the operation.
struct DependencyStub: Sendable {
  struct UUIDGenerator: Sendable {
    let next: @Sendable () -> Int
    static var incrementing: Self {
      let counter = Recorder<Int>()
      return Self {
        counter.append(0)
        return counter.values.count - 1
      }
    }
  }
  var uuid = UUIDGenerator { 42 }
  @TaskLocal static var current = DependencyStub()
}

func withDependencies<R>(
  _ update: (inout DependencyStub) -> Void, operation: () throws -> R
) rethrows -> R {
  var values = DependencyStub.current
  update(&values)
  return try DependencyStub.$current.withValue(values, operation: operation)
}

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

    // Sample: Store type, the short form in its doc comment
    do {
      struct State { var count = 0 }
      enum Action { case incrementTapped }
      let store = Store<State, Action>(initialState: State()) { state, action in
        switch action {
        case .incrementTapped:
          state.count += 1
          return .none
        }
      }
      store.send(.incrementTapped)
      print(store.state.count)  // 1
      #expect(store.state.count == 1)
    }

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

  // Sample: Store.scope with Equatable state
  @Test("the Equatable scope sample compiles, and its store hears only of its own changes")
  func equatableScope() {
    struct Header: Equatable {
      var title = "Mail"
      enum Action: Sendable { case rename(String) }
    }
    struct AppState { var header = Header(), unread = 0 }
    enum AppAction: Sendable { case header(Header.Action), received }
    let appStore = Store<AppState, AppAction>(initialState: AppState()) { state, action in
      switch action {
      case .header(.rename(let title)): state.header.title = title
      case .received: state.unread += 1
      }
      return .none
    }

    let header: Store<Header, Header.Action> =
      appStore.scope(state: \.header, action: AppAction.header)
    var heard: [String] = []
    let subscription = header.subscribe { heard.append($0.title) }
    appStore.send(.received)
    header.send(.rename("Inbox"))  // its observers hear of this send, not of others
    #expect(heard == ["Mail", "Inbox"])
    subscription.cancel()
  }

  // Sample: scope, ifLet, forEach and the optional Store.scope
  @Test("the child feature samples compile, and a sheet's effect ends with it")
  func childFeatures() async {
    typealias App = ChildSamples.App
    let appStore = Store(initialState: App.State(), App.reduce)
    appStore.send(.present)
    if let timer = appStore.scope(state: \.timer, action: App.Action.timer) {
      timer.send(.start)
    }
    appStore.send(.dismiss)
    appStore.send(.present)
    let running = appStore.send(.timer(.start))
    appStore.send(.dismiss)
    #expect(running.isCancelled)
    let board = Store(initialState: ChildSamples.Board.State(), ChildSamples.Board.reduce)
    board.send(.counter(.increment))
    let list = Store(initialState: ChildSamples.List.State(), ChildSamples.List.reduce)
    list.send(.row(id: 1, .toggle))
    #expect(board.state.counter.count == 1 && list.state.rows[0].isDone)
  }

  // Sample: Effect.none, merge and concatenate of collections, StoreTask.finish and isCancelled,
  // StoreSubscription
  @Test("the none, collection, finish, isCancelled and StoreSubscription samples compile and run")
  func members() async {
    enum Feature {
      struct State { var count = 0, items: [String] = [] }
      enum Action: Sendable {
        case incrementTapped, refresh, startTimer
        case searchAll([String]), saveAll([String]), results([String])
      }
    }
    let api = DocStubs.api
    let saved = Recorder<String>()
    let save: @Sendable (String) async throws -> Void = { saved.append($0) }
    let store = Store(initialState: Feature.State()) { (state, action: Feature.Action) in
      switch action {
      case .incrementTapped:
        state.count += 1
        return .none
      case .searchAll(let queries):
        return .merge(
          queries.map { query in
            .run { send in await send(.results(try await api.search(query))) }
          })
      case .saveAll(let drafts):
        return .concatenate(drafts.map { draft in .run { _ in try await save(draft) } })
      case .results(let results):
        state.items += results
        return .none
      case .refresh:
        return .send(.searchAll(["swift", "redux"]))
      case .startTimer:
        return .run { _ in try await Task.sleep(for: .seconds(60)) }
      }
    }
    await store.send(.refresh).finish()
    print(store.state.items)  // what the refresh loaded
    #expect(store.state.items.sorted() == ["redux", "swift"])
    await store.send(.saveAll(["first", "second", "third"])).finish()
    #expect(saved.values == ["first", "second", "third"])

    let timer = store.send(.startTimer)
    timer.cancel()
    print(timer.isCancelled)  // true
    #expect(timer.isCancelled)

    var heard: [Int] = []
    let subscription = store.subscribe { state in print(state.count) }
    subscription.cancel()  // the listener is not called again
    store.subscribe { heard.append($0.count) }  // dropped at once, and still called
    store.send(.incrementTapped)
    #expect(heard == [0, 1])
  }
}

// MARK: - The articles of Sources/MiniRedux/MiniRedux.docc

@MainActor
@Suite("Article samples")
struct ArticleSamples {
  // Sample: MiniRedux.md (landing page)
  @Test("the landing page's debounce sample compiles")
  func landing() async {
    struct State { var query = "", results: [String] = [] }
    enum Action { case queryChanged(String), resultsLoaded([String]) }
    let api = DocStubs.api
    enum CancelID { case search }

    let store = Store<State, Action>(initialState: State()) { state, action in
      switch action {
      case .queryChanged(let query):
        state.query = query
        return .run { send in
          await send(.resultsLoaded(try await api.search(query)))
        }
        .debounce(id: CancelID.search, for: .milliseconds(300))
      case .resultsLoaded(let results):
        state.results = results
        return .none
      }
    }
    // NB: The debounce waits on the real clock; cancel it rather than wait 300 ms.
    let typed = store.send(.queryChanged("swift"))
    typed.cancel()
    await typed.finish()
    #expect(store.state.query == "swift")
    #expect(store.state.results.isEmpty)
  }

  // Sample: GettingStarted.md, a feature and a store
  @Test("Getting started: the counter reduces taps synchronously")
  func gettingStartedCounter() {
    struct Counter {
      struct State {
        var count = 0
      }
      enum Action {
        case incrementTapped
        case decrementTapped
      }

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

    let store = Store(initialState: Counter.State(), Counter.reduce)
    store.send(.incrementTapped)
    store.send(.incrementTapped)
    store.send(.decrementTapped)
    print(store.state.count)  // 1
    #expect(store.state.count == 1)
  }

  // Sample: GettingStarted.md, an effect
  @Test("Getting started: the fact effect delivers its answer, and its error as an action")
  func gettingStartedEffect() async {
    struct Counter {
      struct State {
        var count = 0
        var fact: String?
        var isLoadingFact = false
      }
      enum Action {
        case incrementTapped
        case factTapped
        case factLoaded(String)
      }

      static func reducer(
        fact: @escaping @Sendable (Int) async throws -> String
      ) -> @MainActor (inout State, Action) -> Effect<Action> {
        return { state, action in
          switch action {
          case .incrementTapped:
            state.count += 1
            state.fact = nil
            return .none
          case .factTapped:
            state.isLoadingFact = true
            let count = state.count
            return .run { send in
              await send(.factLoaded(try await fact(count)))
            } catch: { error, send in
              await send(.factLoaded("No fact about \(count): \(error)"))
            }
          case .factLoaded(let text):
            state.isLoadingFact = false
            state.fact = text
            return .none
          }
        }
      }
    }

    let store = Store(
      initialState: Counter.State(),
      Counter.reducer(fact: { number in "\(number) is the loneliest number." }))
    store.send(.incrementTapped)
    await store.send(.factTapped).finish()
    print(store.state.fact ?? "none")  // 1 is the loneliest number.
    #expect(store.state.fact == "1 is the loneliest number.")
    #expect(!store.state.isLoadingFact)

    struct Offline: Error, CustomStringConvertible { var description: String { "offline" } }
    let failing = Store(
      initialState: Counter.State(), Counter.reducer(fact: { _ in throw Offline() }))
    await failing.send(.factTapped).finish()
    #expect(failing.state.fact == "No fact about 0: offline")
  }

  /// The user service of the effect samples: the user, their posts, and a save that fails.
  struct ProfileAPI: Sendable {
    struct SaveFailed: Error {}
    let saved = Recorder<String>()
    func user(_ id: Int) async throws -> String { "user \(id)" }
    func posts(_ id: Int) async throws -> [String] { ["post by \(id)"] }
    func save(_ draft: String) async throws {
      saved.append(draft)
      throw SaveFailed()
    }
  }

  // Sample: EffectsAndCancellation.md, run, merge and concatenate
  @Test("Effects: run delivers, merge starts both, concatenate goes on after a failed step")
  func effectsRun() async {
    struct State {
      var userID = 7
      var isLoading = false
      var user: String?
      var posts: [String] = []
      var draft = "Hello"
      var log: [String] = []
    }
    enum Action {
      case loadTapped, userLoaded(String), loadFailed(String)
      case onAppear, postsLoaded([String])
      case saveTapped, saved
    }
    let api = ProfileAPI()
    let store = Store<State, Action>(initialState: State()) { state, action in
      switch action {
      case .loadTapped:
        state.isLoading = true
        let id = state.userID
        return .run { send in
          await send(.userLoaded(try await api.user(id)))
        } catch: { error, send in
          await send(.loadFailed("\(error)"))
        }
      case .onAppear:
        let id = state.userID
        return .merge(
          .run { send in await send(.userLoaded(try await api.user(id))) },
          .run { send in await send(.postsLoaded(try await api.posts(id))) }
        )
      case .saveTapped:
        let draft = state.draft
        return .concatenate(
          .run { _ in try await api.save(draft) },
          .send(.saved)
        )
      case .userLoaded(let user):
        state.isLoading = false
        state.user = user
        return .none
      case .loadFailed(let message):
        state.log.append(message)
        return .none
      case .postsLoaded(let posts):
        state.posts = posts
        return .none
      case .saved:
        state.log.append("saved")
        return .none
      }
    }

    await store.send(.loadTapped).finish()
    #expect(store.state.user == "user 7")
    #expect(!store.state.isLoading)

    await store.send(.onAppear).finish()
    #expect(store.state.posts == ["post by 7"])

    // The save throws with no catch: handler: it is reported, and the next step still starts.
    let (_, reports) = await capturingReports { await store.send(.saveTapped).finish() }
    #expect(api.saved.values == ["Hello"])
    #expect(reports.count == 1)
    #expect(store.state.log == ["saved"])
  }

  // Sample: EffectsAndCancellation.md, a timer and its StoreTask
  @Test("Effects: the timer stops when cancelled by id, and when its StoreTask is cancelled")
  func effectsTimer() async {
    struct State {
      var isRunning = false
      var seconds = 0
    }
    enum Action { case startTapped, tick, stopTapped }
    enum CancelID { case timer }

    let store = Store<State, Action>(initialState: State()) { state, action in
      switch action {
      case .startTapped:
        state.isRunning = true
        return .run { send in
          while true {
            try await Task.sleep(for: .seconds(1))
            await send(.tick)
          }
        }
        .cancellable(id: CancelID.timer, cancelInFlight: true)
      case .tick:
        state.seconds += 1
        return .none
      case .stopTapped:
        state.isRunning = false
        return .cancel(id: CancelID.timer)
      }
    }

    // Given: a running timer. When: Stop is tapped. Then: its effect ends at once.
    let started = store.send(.startTapped)
    #expect(store.state.isRunning)
    store.send(.stopTapped)
    await started.finish()
    #expect(!store.state.isRunning)

    let timer = store.send(.startTapped)
    // Later, when the screen that started the timer goes away:
    timer.cancel()
    await timer.finish()
    #expect(timer.isCancelled)
    #expect(store.state.seconds == 0)
  }

  // Sample: EffectsAndCancellation.md, debounce
  @Test("Effects: a debounced search sends one request per pause; a stale answer never lands")
  func effectsDebounce() async {
    struct State {
      var query = ""
      var results: [String] = []
    }
    enum Action { case queryChanged(String), resultsLoaded([String]) }
    struct SearchAPI: Sendable {
      let gate = Gate()
      let requests = Recorder<String>()
      func search(_ query: String) async throws -> [String] {
        requests.append(query)
        await gate.wait()  // NB: Ignores cancellation, like a response already on its way.
        return ["\(query) result"]
      }
    }
    let api = SearchAPI()
    let clock = ManualClock()
    enum CancelID { case search }

    let store = Store<State, Action>(initialState: State()) { state, action in
      switch action {
      case .queryChanged(let query):
        state.query = query
        guard !query.isEmpty else {
          state.results = []
          return .cancel(id: CancelID.search)
        }
        return .run { send in
          await send(.resultsLoaded(try await api.search(query)))
        }
        .debounce(id: CancelID.search, for: .milliseconds(300), clock: clock)
      case .resultsLoaded(let results):
        state.results = results
        return .none
      }
    }

    // Given: two quick keystrokes; only the second is requested, after a 300 ms pause.
    store.send(.queryChanged("b"))
    await eventually { clock.sleeperCount == 1 }
    let first = store.send(.queryChanged("ba"))
    await eventually { clock.sleeperCount == 1 }
    clock.advance(by: .milliseconds(300))
    await eventually { api.requests.values == ["ba"] }

    // When: a keystroke arrives while "ba" is in flight, then "ba" is answered anyway.
    let second = store.send(.queryChanged("bat"))
    api.gate.open()
    await first.finish()

    // Then: the stale answer did not land; the newer query's does.
    #expect(store.state.results.isEmpty)
    await eventually { clock.sleeperCount == 1 }
    clock.advance(by: .milliseconds(300))
    await second.finish()
    #expect(api.requests.values == ["ba", "bat"])
    #expect(store.state.results == ["bat result"])

    await store.send(.queryChanged("")).finish()
    #expect(store.state.results.isEmpty)
  }

  // Sample: CompositionAndScoping.md
  @Test("Composition: a parent embeds a child, a list handles delegates, a scope sends through")
  func composition() async {
    typealias App = Composition.App
    typealias Todo = Composition.Todo
    typealias Todos = Composition.Todos

    // The parent embeds the counter, and a key-path scope sends through it; by hand, the same.
    for reducer in [App.reducer, Reduce(Composition.AppByHand.reduce)] {
      let appStore = Store(initialState: App.State(), reducer)
      let counter = appStore.scope(state: \.counter, action: App.Action.counter)
      counter.send(.incrementTapped)
      appStore.send(.saveTapped)
      #expect(appStore.state.saved == [1])
    }

    // The list, with the case read at run time and with an extract closure.
    for reducer in [Todos.reducer, Composition.TodosWithExtract.reducer] {
      let list = Store(initialState: Todos.State(rows: [Todo.State(id: 1, title: "Milk")]), reducer)
      list.send(.row(id: 1, .toggleTapped))
      #expect(list.state.rows.map(\.isDone) == [true])
    }

    let rows = [Todo.State(id: 1, title: "Milk"), Todo.State(id: 2, title: "Tests")]
    let id = 2
    let todos = Store(initialState: Todos.State(rows: rows), Todos.reducer)
    let row = todos.scope(state: { $0.rows.first { $0.id == id } }, action: { .row(id: id, $0) })
    row?.send(.toggleTapped)  // reduced by Todos.reducer as .row(id: id, .toggleTapped)
    #expect(todos.state.rows.map(\.isDone) == [false, true])
    #expect(row?.state.isDone == true)

    // A row deletes itself through its delegate action; its store keeps its last state.
    await row?.send(.deleteTapped).finish()
    #expect(todos.state.rows.map(\.id) == [1])
    #expect(row?.state.title == "Tests")
    #expect(
      todos.scope(state: { $0.rows.first { $0.id == id } }, action: { .row(id: id, $0) }) == nil)
  }

  /// The features of the composition article.
  enum Composition {
    struct Counter {
      struct State { var count = 0 }
      enum Action { case incrementTapped }
      static func reduce(_ state: inout State, _ action: Action) -> Effect<Action> {
        state.count += 1
        return .none
      }
    }
    struct App {
      struct State {
        var counter = Counter.State()
        var saved: [Int] = []
      }
      enum Action {
        case counter(Counter.Action)
        case saveTapped
      }

      static func core(_ state: inout State, _ action: Action) -> Effect<Action> {
        switch action {
        case .counter:
          return .none
        case .saveTapped:
          state.saved.append(state.counter.count)
          return .none
        }
      }

      static let reducer = Reduce(core)
        .scope(\.counter, action: Action.counter, child: Counter.reduce)
    }
    /// The app with its child embedded by hand.
    enum AppByHand {
      typealias State = App.State
      typealias Action = App.Action

      static func reduce(_ state: inout State, _ action: Action) -> Effect<Action> {
        switch action {
        case .counter(let action):
          return Counter.reduce(&state.counter, action).map(Action.counter)
        case .saveTapped:
          state.saved.append(state.counter.count)
          return .none
        }
      }
    }
    struct Todo {
      struct State: Equatable, Identifiable {
        let id: Int
        var title: String
        var isDone = false
      }
      enum Action {
        case toggleTapped
        case deleteTapped
        case delegate(Delegate)
        enum Delegate { case delete }
      }

      static func reduce(_ state: inout State, _ action: Action) -> Effect<Action> {
        switch action {
        case .toggleTapped:
          state.isDone.toggle()
          return .none
        case .deleteTapped:
          return .send(.delegate(.delete))
        case .delegate:
          return .none
        }
      }
    }
    struct Todos {
      struct State {
        var rows: [Todo.State] = []
      }
      enum Action {
        case row(id: Int, Todo.Action)
      }

      static func list(_ state: inout State, _ action: Action) -> Effect<Action> {
        if case .row(let id, .delegate(.delete)) = action {
          state.rows.removeAll { $0.id == id }
        }
        return .none
      }

      static let reducer = Reduce(list)
        .forEach(\.rows, action: Action.row, child: Todo.reduce)
    }
    /// The list with the fast path: an extract closure.
    enum TodosWithExtract {
      typealias Action = Todos.Action
      static let list = Todos.list
      static let reducer = Reduce(list)
        .forEach(
          \.rows, action: Action.row,
          extract: { if case .row(let id, let a) = $0 { (id, a) } else { nil } },
          child: Todo.reduce)
    }
  }

  // Sample: MigratingFromTCA.md
  @Test("Migrating from TCA: the search reducer runs with live-like and test services")
  func migratingFromTCA() async {
    let api = DocStubs.api
    struct Search {
      struct State {
        var query = ""
        var results: [String] = []
      }
      enum Action {
        case queryChanged(String)
        case resultsLoaded([String])
      }
      enum CancelID { case search }

      static func reducer(
        search: @escaping @Sendable (String) async throws -> [String],
        clock: some Clock<Duration>
      ) -> @MainActor (inout State, Action) -> Effect<Action> {
        return { state, action in
          switch action {
          case .queryChanged(let query):
            state.query = query
            return .run { send in
              await send(.resultsLoaded(try await search(query)))
            }
            .debounce(id: CancelID.search, for: .milliseconds(300), clock: clock)
          case .resultsLoaded(let results):
            state.results = results
            return .none
          }
        }
      }
    }

    let store = Store(
      initialState: Search.State(),
      Search.reducer(search: { query in try await api.search(query) }, clock: ContinuousClock()))
    // NB: Not waiting out the real clock's 300 ms: a test passes its own clock, as below.
    store.send(.queryChanged("tca")).cancel()
    #expect(store.state.query == "tca")

    let clock = ManualClock()
    let tested = Store(
      initialState: Search.State(),
      Search.reducer(search: { query in ["\(query)!"] }, clock: clock))
    let typed = tested.send(.queryChanged("swift"))
    await eventually { clock.sleeperCount == 1 }
    clock.advance(by: .milliseconds(300))
    await typed.finish()
    #expect(tested.state.results == ["swift!"])
  }

  // Sample: MigratingFromMiniRedux.md
  @Test("Migrating from MiniRedux: the quote loader lands a quote, or an error as a quote")
  func migratingFromMiniRedux() async {
    struct RandomQuote {
      struct State {
        var text = ""
      }
      enum Action {
        case getQuoteTapped
        case quoteLoaded(String)
      }
      enum CancelID { case load }

      @MainActor static func store(
        quote: @escaping @Sendable () async throws -> String
      ) -> Store<State, Action> {
        return Store(initialState: State()) { state, action in
          switch action {
          case .getQuoteTapped:
            state.text = "Loading..."
            return .run { send in
              await send(.quoteLoaded(try await quote()))
            } catch: { error, send in
              await send(.quoteLoaded("Error: \(error)"))
            }
            .cancellable(id: CancelID.load, cancelInFlight: true)
          case .quoteLoaded(let text):
            state.text = text
            return .none
          }
        }
      }
    }

    let store = RandomQuote.store(quote: { "Simplicity - Anonymous" })
    await store.send(.getQuoteTapped).finish()
    #expect(store.state.text == "Simplicity - Anonymous")

    struct Offline: Error {}
    let failing = RandomQuote.store(quote: { throw Offline() })
    await failing.send(.getQuoteTapped).finish()
    #expect(failing.state.text == "Error: Offline()")
  }
}

/// The samples of the TestStore doc comments, README.md and the DocC article.
/// The TestStore sample as a user writes it: in a suite that is not `@MainActor`, so that the
/// sample's own `@MainActor` is what lets it compile.
@Suite("Doc samples: TestStore, as written")
struct TestStoreSampleAsWritten {
  typealias Counter = TestStoreDocSamples.Counter

  // Sample: TestStore, TestStore.init, send, finish
  @Test @MainActor func incrementAndLoadFact() async throws {
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
}

@MainActor
@Suite("Doc samples: TestStore", .throwingFailures)
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

  // Sample: TestClock's advance(by:), advance(to:) and run()
  @Test("the TestClock samples: advance by a duration, by nothing, to an instant; run")
  func clockMoves() async throws {
    enum Countdown {
      enum Action: Equatable, Sendable { case startCountdown, tick }
      static func reducer(clock: TestClock) -> Reducer<Int, Action> {
        { count, action in
          switch action {
          case .startCountdown:
            return .run { send in
              try await clock.sleep(for: .zero)
              for _ in 0..<3 {
                try await clock.sleep(for: .seconds(1))
                await send(.tick)
              }
            }
          case .tick:
            count -= 1
            return .none
          }
        }
      }
    }
    let clock = TestClock()  // given to the feature, as its reducer's clock
    let store = TestStore(initialState: 3, Countdown.reducer(clock: clock))
    store.timeout = patience
    try await store.send(.startCountdown)
    await clock.advance()  // what sleeps for zero, or until now, wakes
    await clock.advance(by: .seconds(1))  // a one-second timer ticks once
    await clock.advance()  // what sleeps for zero, or until now, wakes
    try await store.receive(.tick) { $0 = 2 }
    await clock.advance(to: clock.now.advanced(by: .seconds(5)))
    try await store.receive(.tick) { $0 = 1 }
    try await store.receive(.tick) { $0 = 0 }
    try await store.finish()
    try await store.send(.startCountdown)
    await clock.run()
    store.exhaustivity = .off
    try await store.finish()
  }

  // Sample: TestStore's receive by case
  @Test("the receive-by-case samples: a Result with any Error, by case, then by payload")
  func receiveByCase() async throws {
    enum Search {
      struct State: Equatable { var results: [String] = [] }
      enum Action: Sendable {
        case search(String)
        case searchResponse(Result<[String], any Error>)
      }
      static func reduce(_ state: inout State, _ action: Action) -> Effect<Action> {
        switch action {
        case .search(let query):
          let results = query.isEmpty ? [] : [query]
          return .run { send in await send(.searchResponse(.success(results))) }
        case .searchResponse(let result):
          state.results = (try? result.get()) ?? []
          return .none
        }
      }
    }
    let store = TestStore(initialState: Search.State(), Search.reduce)
    store.timeout = patience
    try await store.send(.search(""))
    try await store.receive(Search.Action.searchResponse, where: { (try? $0.get()) == [] })
    try await store.send(.search("swift"))
    try await store.receive(Search.Action.searchResponse) { $0.results = ["swift"] }
    try await store.finish()
  }

  // Sample: MigratingFromTCA, a TestStore's context with swift-dependencies
  @Test("the context sample: an override reaches the reducer through withDependencies")
  func contextWithDependencies() async throws {
    enum Todos {
      struct State: Equatable { var ids: [Int] = [] }
      enum Action: Sendable { case add }
      static func reduce(_ state: inout State, _ action: Action) -> Effect<Action> {
        state.ids.append(DependencyStub.current.uuid.next())
        return .none
      }
    }
    typealias UUIDGenerator = DependencyStub.UUIDGenerator
    let uuid = UUIDGenerator.incrementing
    let store = TestStore(initialState: Todos.State(), Todos.reduce) { reduce in
      withDependencies {
        $0.uuid = uuid
      } operation: {
        reduce()
      }
    }
    try await store.send(.add) { $0.ids = [0] }
    try await store.send(.add) { $0.ids = [0, 1] }
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

  // Sample: Store's properties
  @Test("a property read through the store is the state's")
  func dynamicMember() {
    enum Counter {
      struct State { var count = 0 }
      enum Action: Sendable { case incrementTapped }
      static func reduce(_ state: inout State, _ action: Action) -> Effect<Action> {
        state.count += 1
        return .none
      }
    }
    let store = Store(initialState: Counter.State(), Counter.reduce)
    store.send(.incrementTapped)
    print(store.count)  // 1: a view that reads it re-renders when a send changes count
    #expect(store.count == 1)
  }

  // Sample: TestClock
  @Test("the TestClock sample: a debounce test written the obvious way")
  func testClockSample() async throws {
    let clock = TestClock()
    let store = TestStore(initialState: Search.State(), Search.reducer(clock: clock) { [$0] })
    store.timeout = patience
    try await store.send(.queryChanged("swift")) { $0.query = "swift" }
    await clock.advance(by: .milliseconds(300))
    try await store.receive(.resultsLoaded(["swift"])) { $0.results = ["swift"] }
    try await store.finish()
  }

  // Sample: ImmediateTestClock
  @Test("the ImmediateTestClock sample: a debounce that does not wait")
  func immediateTestClockSample() async throws {
    let clock = ImmediateTestClock()
    let store = TestStore(initialState: Search.State(), Search.reducer(clock: clock) { [$0] })
    store.timeout = patience
    try await store.send(.queryChanged("swift")) { $0.query = "swift" }
    try await store.receive(.resultsLoaded(["swift"])) { $0.results = ["swift"] }
    try await store.finish()
  }

  // Sample: Reducer and printChanges
  @Test("the Reducer and printChanges samples compile and run")
  func reducerAndPrintChanges() {
    let reduce: Reducer<Int, Bool> = { count, increment in
      count += increment ? 1 : -1
      return .none
    }
    let counter = Store(initialState: 0, reduce)
    counter.send(true)
    #expect(counter.state == 1)
    enum Counter {
      struct State { var count = 0 }
      enum Action: Sendable { case incrementTapped }
      static func reduce(_ state: inout State, _ action: Action) -> Effect<Action> {
        state.count += 1
        return .none
      }
    }
    let store = Store(initialState: Counter.State(), printChanges(Counter.reduce))
    store.send(.incrementTapped)
    // received .incrementTapped
    //   Counter.State(
    // -   count: 0
    // +   count: 1
    //   )
    #expect(store.state.count == 1)
    var log: [String] = []
    let logged = Store(
      initialState: Counter.State(), printChanges(Counter.reduce) { log.append($0) })
    logged.send(.incrementTapped)
    #expect(log == ["received .incrementTapped\n  Counter.State(\n-   count: 0\n+   count: 1\n  )"])
  }

  // Sample: Testing a feature: time
  @Test("TestStore rule 6: a debounce on a manual clock fires when the test advances it")
  func searchWithManualClock() async throws {
    let clock = TestClock()
    let store = TestStore(
      initialState: Search.State(),
      Search.reducer(clock: clock) { query in ["\(query)!"] })
    store.timeout = patience
    try await store.send(.queryChanged("b")) { $0.query = "b" }
    try await store.send(.queryChanged("ba")) { $0.query = "ba" }
    await clock.advance(by: .milliseconds(300))
    try await store.receive(.resultsLoaded(["ba!"])) { $0.results = ["ba!"] }
    try await store.finish()
  }

  // Sample: Testing a feature: a plain Store and a TestClock
  @Test("a plain Store made in a test lets a TestClock see its effects; its finish() is bounded")
  func plainStoreWithTestClock() async {
    let clock = TestClock()
    let store = Store(initialState: Search.State(), Search.reducer(clock: clock) { [$0] })
    let task = store.send(.queryChanged("swift"))
    await clock.advance(by: .milliseconds(300))
    await task.finish()
    #expect(store.results == ["swift"])
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

/// A list of rows with identity, embedded with `forEach`: a row's effects end with it, and each
/// talks to the list through a delegate action (also tested in ScopeTests).
enum Todos {
  struct Row: Equatable, Identifiable {
    let id: Int
    var title: String
    var isSaved = false
  }
  enum RowAction: Sendable, Equatable {
    case save, saved, deleteTapped
    case delegate(Delegate)
    enum Delegate: Sendable, Equatable { case delete }
  }
  struct State: Equatable {
    var rows: [Row] = []
    var nextID = 0
  }
  enum Action: Sendable, Equatable {
    case add(String)
    case row(id: Int, RowAction)
  }

  @MainActor
  static func row(_ gate: Gate) -> @MainActor (inout Row, RowAction) -> Effect<RowAction> {
    { row, action in
      switch action {
      case .save:
        return .run { send in
          await gate.wait()
          await send(.saved)
        }
      case .saved:
        row.isSaved = true
        return .none
      case .deleteTapped:
        return .send(.delegate(.delete))
      case .delegate:
        return .none
      }
    }
  }

  @MainActor
  static func store(_ gate: Gate) -> Store<State, Action> {
    Store(initialState: State(), reducer(gate))
  }

  @MainActor
  static func reducer(_ gate: Gate) -> @MainActor (inout State, Action) -> Effect<Action> {
    Reduce(list).forEach(\.rows, action: Action.row, child: row(gate)).reduce
  }

  static func list(_ state: inout State, _ action: Action) -> Effect<Action> {
    switch action {
    case .add(let title):
      state.rows.append(Row(id: state.nextID, title: title))
      state.nextID += 1
      return .none
    case .row(let id, .delegate(.delete)):
      state.rows.removeAll { $0.id == id }
      return .none
    case .row:
      return .none
    }
  }
}

/// The child features of the scope, ifLet and forEach samples.
enum ChildSamples {
  enum Counter {
    struct State: Equatable { var count = 0 }
    enum Action: Sendable { case increment }
    static func reduce(_ state: inout State, _ action: Action) -> Effect<Action> {
      state.count += 1
      return .none
    }
  }
  enum Timer {
    struct State: Equatable { var seconds = 0 }
    enum Action: Sendable { case start, tick }
    static func reduce(_ state: inout State, _ action: Action) -> Effect<Action> {
      switch action {
      case .start: return .run { _ in await untilCancelled() }
      case .tick: state.seconds += 1
      }
      return .none
    }
  }
  enum Row {
    struct State: Equatable, Identifiable {
      let id: Int
      var isDone = false
    }
    enum Action: Sendable { case toggle }
    static func reduce(_ state: inout State, _ action: Action) -> Effect<Action> {
      state.isDone.toggle()
      return .none
    }
  }
  enum Board {
    struct State { var counter = Counter.State() }
    enum Action: Sendable { case counter(Counter.Action) }
    static func core(_ state: inout State, _ action: Action) -> Effect<Action> { .none }
    static let reduce = scope(
      core, state: \.counter, action: { if case .counter(let a) = $0 { a } else { nil } },
      embed: Action.counter, child: Counter.reduce)
  }
  enum App {
    struct State { var timer: Timer.State? }
    enum Action: Sendable { case present, dismiss, timer(Timer.Action) }
    static func core(_ state: inout State, _ action: Action) -> Effect<Action> {
      switch action {
      case .present: state.timer = Timer.State()
      case .dismiss: state.timer = nil
      case .timer: break
      }
      return .none
    }
    static let reduce = ifLet(
      core, state: \.timer, action: { if case .timer(let a) = $0 { a } else { nil } },
      embed: Action.timer, child: Timer.reduce)
  }
  enum List {
    struct State { var rows = [Row.State(id: 1)] }
    enum Action: Sendable { case row(id: Int, Row.Action) }
    static func core(_ state: inout State, _ action: Action) -> Effect<Action> { .none }
    static let reduce = forEach(
      core, state: \.rows, action: { if case .row(let id, let a) = $0 { (id, a) } else { nil } },
      embed: Action.row, child: Row.reduce)
  }
}

// Sample: NavigationAndChildFeatures.md
/// The app of the article: a timer presented as a sheet, and a stack of screens.
enum NavigationArticle {
  enum Timer {
    struct State: Equatable, Identifiable {
      let id: Int
      var seconds = 0
    }
    enum Action: Sendable {
      case onAppear, tick, closeTapped, delegate(Delegate)
      enum Delegate: Sendable { case close }
    }

    static func reduce(_ state: inout State, _ action: Action) -> Effect<Action> {
      switch action {
      case .onAppear:
        return .run { send in
          while true {
            try await Task.sleep(for: .seconds(1))
            // The article's timer ticks each second; a minute here, so that no tick falls between
            // two steps of the test of its dismissal while tests beside it hold the main actor.
            try await Task.sleep(for: .seconds(59))
            await send(.tick)
          }
        }
      case .tick:
        state.seconds += 1
        return .none
      case .closeTapped:
        return .send(.delegate(.close))
      case .delegate:
        return .none
      }
    }
  }

  enum Screen {
    struct State: Equatable { var title = "" }
    enum Action: Sendable { case titleChanged(String) }

    static func reduce(_ state: inout State, _ action: Action) -> Effect<Action> {
      switch action {
      case .titleChanged(let title):
        state.title = title
        return .none
      }
    }
  }

  enum App {
    struct State: Equatable {
      var timer: Timer.State?
      var path = StackState<Screen.State>()
    }
    enum Action: Sendable {
      case showTimer, dismissTimer, timer(Timer.Action)
      case push, popTo(count: Int), path(id: Int, Screen.Action)
    }

    static func core(_ state: inout State, _ action: Action) -> Effect<Action> {
      switch action {
      case .showTimer:
        state.timer = Timer.State(id: 1)
      case .dismissTimer, .timer(.delegate(.close)):
        state.timer = nil
      case .push:
        state.path.append(Screen.State())
      case .popTo(let count):
        state.path.removeLast(state.path.count - count)
      case .timer, .path:
        break
      }
      return .none
    }

    static let reducer = Reduce(core)
      .ifLet(\.timer, action: Action.timer, child: Timer.reduce)
      .forEach(\.path, action: Action.path, child: Screen.reduce)
  }

  /// A dictionary of rows, embedded through its values.
  enum Keyed {
    struct Row: Identifiable {
      let id: Int
      var title = ""
    }
    struct State { var rows: [Int: Row] = [1: Row(id: 1)] }
    enum Action: Sendable { case row(id: Int, Screen.Action) }
    static func core(_ state: inout State, _ action: Action) -> Effect<Action> { .none }
    static let reducer = Reduce(core)
      .forEach(\.rows.values, action: Action.row) { row, action in
        guard case .titleChanged(let title) = action else { return .none }
        row.title = title
        return .none
      }
  }

  #if canImport(SwiftUI)
    struct TimerView: View {
      let store: Store<Timer.State, Timer.Action>
      var body: some View { Text("\(store.state.seconds)") }
    }
    struct HomeView: View {
      let store: Store<App.State, App.Action>
      var body: some View { Button("Timer") { store.send(.showTimer) } }
    }
    struct ScreenView: View {
      let store: Store<Screen.State, Screen.Action>
      var body: some View { Text(store.state.title) }
    }
    struct AppView: View {
      let store: Store<App.State, App.Action>
      var body: some View {
        VStack {
          NavigationStack(
            path: Binding(
              get: { store.path.ids }, set: { store.send(.popTo(count: $0.count)) })
          ) {
            HomeView(store: store)
              .navigationDestination(for: Int.self) { id in
                if let screen = store.scope(
                  state: { $0.path[id: id] }, action: { .path(id: id, $0) })
                {
                  ScreenView(store: screen)
                }
              }
          }
          .sheet(
            item: Binding(
              get: { store.timer }, set: { if $0 == nil { store.send(.dismissTimer) } })
          ) { _ in
            if let timer = store.scope(state: \.timer, action: App.Action.timer) {
              TimerView(store: timer)
            }
          }
          List(store.path.ids, id: \.self) { id in
            if let row = store.scope(state: { $0.path[id: id] }, action: { .path(id: id, $0) }) {
              TextField(
                "Title",
                text: Binding(get: { row.title }, set: { row.send(.titleChanged($0)) }))
            }
          }
        }
      }
    }
  #endif
}

// Sample: tell, then dismiss (Effect.dismiss, Send.dismiss, TestStore.receiveDismiss)
/// A note's editor, in a destination with an alert: it closes, or saves, tells its parent, then
/// closes, after a send or from a `.run`.
enum NoteEditor {
  struct State: Equatable { var draft = "" }
  enum Action: Equatable, Sendable {
    case closeTapped, saveTapped
    case delegate(Delegate)
  }
  enum Delegate: Equatable, Sendable { case saved(String) }
  struct API: Sendable { var save: @Sendable (String) async throws -> Void }

  static func reduce(_ state: inout State, _ action: Action) -> Effect<Action> {
    switch action {
    case .closeTapped:
      return .dismiss
    case .saveTapped:
      return .concatenate(.send(.delegate(.saved(state.draft))), .dismiss)
    case .delegate:
      return .none
    }
  }

  static func uploading(_ api: API) -> Reducer<State, Action> {
    { state, action in
      switch action {
      case .saveTapped:
        return .run { [draft = state.draft] send in
          try await api.save(draft)
          await send(.delegate(.saved(draft)))
          await send.dismiss()
        }
      default:
        return reduce(&state, action)
      }
    }
  }
}

enum Notes {
  struct State: Equatable {
    var destination: Destination? = .edit(NoteEditor.State(draft: "Hi"))
    var saved: [String] = []
  }
  enum Destination: Equatable { case edit(NoteEditor.State), alert(String) }
  enum DestinationAction: Equatable, Sendable {
    case edit(NoteEditor.Action)
    case alert(Alert)
  }
  enum Alert: Equatable, Sendable { case ok }
  enum Action: Equatable, Sendable { case destination(DestinationAction) }

  static func reducer(_ editor: @escaping Reducer<NoteEditor.State, NoteEditor.Action>)
    -> Reduce<State, Action>
  {
    Reduce<State, Action> { state, action in
      if case .destination(.edit(.delegate(.saved(let draft)))) = action {
        state.saved.append(draft)
      }
      return .none
    }
    .ifLet(
      \.destination, action: Action.destination,
      child: Reduce<Destination, DestinationAction> { _, _ in .none }
        .scope(Destination.edit, action: DestinationAction.edit, child: editor)
        .scope(Destination.alert, action: DestinationAction.alert))
  }
}

@MainActor
@Suite("Doc samples: tell, then dismiss")
struct TellThenDismissSamples {
  @Test("the child tells its parent, then dismisses itself: each is a step the test asserts")
  func concatenated() async throws {
    let store = TestStore(initialState: Notes.State(), Notes.reducer(NoteEditor.reduce))
    store.timeout = patience
    try await store.send(.destination(.edit(.saveTapped)))
    try await store.receive(.destination(.edit(.delegate(.saved("Hi"))))) { $0.saved = ["Hi"] }
    try await store.receiveDismiss { $0.destination = nil }
    try await store.finish()
  }

  @Test("from a .run, after saving: the delegate action, then the dismissal")
  func fromRun() async throws {
    let api = NoteEditor.API(save: { _ in })
    let store = TestStore(initialState: Notes.State(), Notes.reducer(NoteEditor.uploading(api)))
    store.timeout = patience
    try await store.send(.destination(.edit(.saveTapped)))
    try await store.receive(.destination(.edit(.delegate(.saved("Hi"))))) { $0.saved = ["Hi"] }
    try await store.receiveDismiss { $0.destination = nil }
    try await store.finish()
  }

  @Test("a dismissal not asserted fails the next step, which names it")
  func unasserted() async throws {
    try await withKnownIssue {
      let store = TestStore(initialState: Notes.State(), Notes.reducer(NoteEditor.reduce))
      store.timeout = patience
      try await store.send(.destination(.edit(.saveTapped)))
      try await store.receive(.destination(.edit(.delegate(.saved("Hi"))))) { $0.saved = ["Hi"] }
      try await store.finish()
    } matching: {
      $0.description.contains("a child's dismissal of itself")
    }
  }
}

// Sample: NavigationAndChildFeatures.md, an enum destination: a sheet and an alert
/// A contact's form, presented as a sheet: Save tells the list, then closes the sheet.
enum ContactForm {
  struct State: Equatable, Identifiable {
    let id: Int
    var name = ""
  }
  enum Action: Equatable, Sendable {
    case nameChanged(String), saveTapped, cancelTapped
    case delegate(Delegate)
  }
  enum Delegate: Equatable, Sendable { case save(String) }

  static func reduce(_ state: inout State, _ action: Action) -> Effect<Action> {
    switch action {
    case .nameChanged(let name):
      state.name = name
      return .none
    case .saveTapped:
      return .concatenate(.send(.delegate(.save(state.name))), .dismiss)
    case .cancelTapped:
      return .dismiss
    case .delegate:
      return .none
    }
  }
}

/// A list of contacts whose one destination is the form, in a sheet, or an alert that asks
/// before deleting.
enum Contacts {
  struct State: Equatable {
    var names: [String] = []
    var destination: Destination?
    var nextID = 0
  }
  enum Destination: Equatable {
    case add(ContactForm.State)
    case confirmDelete(String)
  }
  enum DestinationAction: Equatable, Sendable {
    case add(ContactForm.Action)
    case confirmDelete(Alert)
  }
  enum Alert: Equatable, Sendable { case delete(String), cancel }
  enum Action: Equatable, Sendable {
    case addTapped, deleteTapped(String), sheetDismissed
    case destination(DestinationAction)
  }

  static let reducer = Reduce<State, Action> { state, action in
    switch action {
    case .addTapped:
      state.destination = .add(ContactForm.State(id: state.nextID))
      state.nextID += 1
    case .deleteTapped(let name):
      state.destination = .confirmDelete(name)
    case .sheetDismissed:
      state.destination = nil
    case .destination(.add(.delegate(.save(let name)))):
      state.names.append(name)
    case .destination(.confirmDelete(.delete(let name))):
      state.names.removeAll { $0 == name }
    case .destination:
      break
    }
    return .none
  }
  .ifLet(
    \.destination, action: Action.destination,
    child: Reduce<Destination, DestinationAction> { _, _ in .none }
      .scope(Destination.add, action: DestinationAction.add, child: ContactForm.reduce)
      .scope(Destination.confirmDelete, action: DestinationAction.confirmDelete))
}

extension Contacts.Destination {
  var add: ContactForm.State? { if case .add(let form) = self { form } else { nil } }
  var confirmDelete: String? { if case .confirmDelete(let name) = self { name } else { nil } }
}

#if canImport(SwiftUI)
  struct ContactFormView: View {
    let store: Store<ContactForm.State, ContactForm.Action>
    var body: some View {
      Form {
        TextField(
          "Name", text: Binding(get: { store.name }, set: { store.send(.nameChanged($0)) }))
        Button("Save") { store.send(.saveTapped) }
        Button("Cancel") { store.send(.cancelTapped) }
      }
    }
  }

  struct ContactsView: View {
    let store: Store<Contacts.State, Contacts.Action>
    var body: some View {
      List(store.names, id: \.self) { name in
        Button(name) { store.send(.deleteTapped(name)) }
      }
      .toolbar { Button("Add") { store.send(.addTapped) } }
      .sheet(
        item: Binding(
          get: { store.destination?.add }, set: { if $0 == nil { store.send(.sheetDismissed) } })
      ) { _ in
        if let form = store.scope(
          state: { $0.destination?.add }, action: { .destination(.add($0)) })
        {
          ContactFormView(store: form)
        }
      }
      .alert(
        "Delete \(store.destination?.confirmDelete ?? "")?",
        isPresented: Binding(get: { store.destination?.confirmDelete != nil }, set: { _ in })
      ) {
        if let name = store.destination?.confirmDelete {
          Button("Delete", role: .destructive) {
            store.send(.destination(.confirmDelete(.delete(name))))
          }
        }
        Button("Cancel", role: .cancel) { store.send(.destination(.confirmDelete(.cancel))) }
      }
    }
  }
#endif

@MainActor
@Suite("Doc samples: an enum destination, a sheet and an alert")
struct EnumDestinationSamples {
  @Test("the form tells the list, then closes; the alert closes on either button")
  func sheetAndAlert() async throws {
    let store = TestStore(initialState: Contacts.State(), Contacts.reducer)
    store.timeout = patience
    try await store.send(.addTapped) {
      $0.destination = .add(ContactForm.State(id: 0))
      $0.nextID = 1
    }
    try await store.send(.destination(.add(.nameChanged("Ada")))) {
      $0.destination = .add(ContactForm.State(id: 0, name: "Ada"))
    }
    try await store.send(.destination(.add(.saveTapped)))
    try await store.receive(.destination(.add(.delegate(.save("Ada"))))) { $0.names = ["Ada"] }
    try await store.receiveDismiss { $0.destination = nil }
    try await store.send(.deleteTapped("Ada")) { $0.destination = .confirmDelete("Ada") }
    try await store.send(.destination(.confirmDelete(.cancel))) { $0.destination = nil }
    try await store.send(.deleteTapped("Ada")) { $0.destination = .confirmDelete("Ada") }
    try await store.send(.destination(.confirmDelete(.delete("Ada")))) {
      $0.destination = nil
      $0.names = []
    }
    try await store.finish()
  }

  @Test("the views' expressions, outside SwiftUI: the sheet's and the alert's bindings")
  func viewExpressions() {
    let store = Store(initialState: Contacts.State(), Contacts.reducer)
    store.send(.addTapped)
    let form = store.scope(state: { $0.destination?.add }, action: { .destination(.add($0)) })
    form?.send(.nameChanged("Ada"))
    #expect(store.destination?.add?.name == "Ada")
    let setSheet: (ContactForm.State?) -> Void = { if $0 == nil { store.send(.sheetDismissed) } }
    setSheet(nil)
    #expect(store.destination == nil && store.names == [])
    store.send(.deleteTapped("Ada"))
    let isPresented = { store.destination?.confirmDelete != nil }
    #expect(isPresented())
    if let name = store.destination?.confirmDelete {
      store.send(.destination(.confirmDelete(.delete(name))))
    }
    #expect(!isPresented())
  }
}

// Sample: TestingAFeature.md, screens named 0, 1, 2 in a test store
extension DocSamples {
  @Test("a test store's stacks count ids from 0: its initial state's, its steps', its closures'")
  func stackIDsInATestStore() async throws {
    typealias App = StackSamples.App
    typealias Detail = StackSamples.Detail
    typealias Path = StackSamples.Path
    let store = TestStore(initialState: App.State(), App.reducer)
    try await store.send(.push) { $0.path.append(.detail(Detail.State())) }
    try await store.send(.path(id: 1, .detail(.tapped))) {
      $0.path[id: 1][case: Path.State.detail]?.taps = 1
    }
    #expect(store.state.path.ids == [0, 1])
    try await store.finish()

    // A state made before the test store keeps the ids the process gave it.
    let (first, second) = (App.State(), App.State())
    let made = TestStore(initialState: second, App.reducer)
    #expect(made.state.path.ids == second.path.ids && second.path.ids != first.path.ids)
    try await made.finish()
  }

  @Test("a send that fails for unasserted received actions keeps them to be received")
  func failingSendKeepsReceivedActions() async throws {
    typealias Counter = TestStoreDocSamples.Counter
    let store = TestStore(initialState: Counter.State(count: 1), Counter.reduce)
    store.timeout = patience
    let task = try await store.send(.factTapped) { $0.isLoading = true }
    await task.finish()
    try await withKnownIssue {
      try await store.send(.incrementTapped) { $0.count = 2 }
    } matching: {
      $0.description.contains("actions received earlier were not asserted")
    }
    try await store.receive(.factLoaded("1 is odd")) {
      $0.isLoading = false
      $0.fact = "1 is odd"
    }
    try await store.finish()
  }
}

// Sample: Effect.dismiss
/// A form in a sheet that closes itself, or saves, tells its parent, then closes.
enum Editor {
  struct State: Equatable { var draft = "" }
  enum Action: Equatable, Sendable {
    case closeTapped, saveTapped
    case delegate(Delegate)
  }
  enum Delegate: Equatable, Sendable { case saved }

  static func reducer(save: @escaping @Sendable (String) async throws -> Void)
    -> Reducer<State, Action>
  {
    { state, action in
      switch action {
      case .closeTapped:
        return .dismiss
      case .saveTapped:
        return .run { [draft = state.draft] send in
          try await save(draft)
          await send(.delegate(.saved))
          await send(.closeTapped)
        }
      case .delegate:
        return .none
      }
    }
  }
}

@MainActor
@Suite("Doc samples: navigation and child features")
struct NavigationArticleSamples {
  typealias App = NavigationArticle.App
  typealias Timer = NavigationArticle.Timer

  @Test("the Effect.dismiss sample: a form saves, tells its parent, and closes itself")
  func editorDismisses() async throws {
    struct State: Equatable {
      var editor: Editor.State? = Editor.State(draft: "Hi")
      var saved: [String] = []
    }
    enum Action: Equatable, Sendable { case editor(Editor.Action) }
    let store = TestStore(
      initialState: State(),
      ifLet(
        { state, action in
          if action == .editor(.delegate(.saved)) { state.saved.append("Hi") }
          return .none
        }, state: \.editor, action: { if case .editor(let a) = $0 { a } else { nil } },
        embed: Action.editor, child: Editor.reducer(save: { _ in })))
    store.timeout = patience
    try await store.send(.editor(.saveTapped))
    try await store.receive(.editor(.delegate(.saved))) { $0.saved = ["Hi"] }
    try await store.receive(.editor(.closeTapped)) { $0.editor = nil }
    try await store.finish()
  }

  @Test("the sheet's timer ends with the sheet; a test of the dismissal needs no manual cancel")
  func dismissal() async throws {
    let store = TestStore(initialState: App.State(), App.reducer)
    try await store.send(.showTimer) { $0.timer = Timer.State(id: 1) }
    try await store.send(.timer(.onAppear))
    try await store.send(.dismissTimer) { $0.timer = nil }
    try await store.finish()
  }

  @Test("the views' expressions, outside SwiftUI: bindings read state and send actions")
  func viewExpressions() {
    let store = Store(initialState: App.State(), App.reducer)
    store.send(.showTimer)
    store.send(.push)
    store.send(.push)
    // The navigation path's binding, the destination's scope and the sheet's scope.
    let path = { store.path.ids }
    let setPath: ([Int]) -> Void = { store.send(.popTo(count: $0.count)) }
    let id = store.path.ids[1]
    let screen = store.scope(state: { $0.path[id: id] }, action: { .path(id: id, $0) })
    let timer = store.scope(state: \.timer, action: App.Action.timer)
    #expect(path().count == 2 && screen != nil && timer?.state.id == 1)
    // The text field's binding.
    let row = screen!
    let setTitle: (String) -> Void = { row.send(.titleChanged($0)) }
    setTitle("Inbox")
    #expect(row.state.title == "Inbox" && store.path[1].title == "Inbox")
    setPath([path()[0]])
    #expect(store.state.path.ids == [path()[0]] && row.state.title == "Inbox")
    let keyed = Store(
      initialState: NavigationArticle.Keyed.State(), NavigationArticle.Keyed.reducer)
    keyed.send(.row(id: 1, .titleChanged("Keyed")))
    #expect(keyed.state.rows[1]?.title == "Keyed")
  }
}

// Sample: GettingStarted.md, what the compiler asks of an action
/// An error carried as an `Equatable` value, so that a test store can receive it.
enum ErrorAction {
  struct LoadError: Error, Equatable, Sendable { let message: String }

  enum Action: Equatable, Sendable {
    case loadTapped
    case loaded(Result<String, LoadError>)
  }

  struct Offline: Error, CustomStringConvertible { var description: String { "offline" } }

  static func reduce(_ state: inout String, _ action: Action) -> Effect<Action> {
    let load: @Sendable () async throws -> String = { throw Offline() }
    switch action {
    case .loadTapped:
      return .run { send in
        await send(.loaded(.success(try await load())))
      } catch: { error, send in
        await send(.loaded(.failure(LoadError(message: "\(error)"))))
      }
    case .loaded(let result):
      state = (try? result.get()) ?? "failed"
      return .none
    }
  }
}

@MainActor
@Suite("Doc samples: errors as actions")
struct ErrorActionSamples {
  @Test("an error carried as an Equatable value is received like any action")
  func receivesError() async throws {
    typealias LoadError = ErrorAction.LoadError
    let store = TestStore(initialState: "", ErrorAction.reduce)
    store.timeout = patience
    try await store.send(.loadTapped)
    try await store.receive(.loaded(.failure(LoadError(message: "offline")))) { $0 = "failed" }
    try await store.finish()
  }
}

// Sample: Reduce, its scope, ifLet and forEach, and Store and TestStore made from one
/// The samples of `Reduce`: a feature's own logic, then one call per child.
enum ReduceSamples {
  typealias Header = ChildSamples.Counter
  typealias Counter = ChildSamples.Counter
  typealias Sheet = ChildSamples.Timer
  typealias Timer = ChildSamples.Timer
  typealias Row = ChildSamples.Row

  enum Inbox {
    struct State: Equatable {
      var header = Header.State()
      var sheet: Sheet.State? = Sheet.State()
      var rows = [Row.State(id: 1)]
    }
    enum Action: Sendable {
      case header(Header.Action), sheet(Sheet.Action), row(id: Int, Row.Action)
    }
    static func core(_ state: inout State, _ action: Action) -> Effect<Action> { .none }

    static let reducer = Reduce(core)
      .scope(\.header, action: Action.header, child: Header.reduce)
      .ifLet(\.sheet, action: Action.sheet, child: Sheet.reduce)
      .forEach(\.rows, action: Action.row, child: Row.reduce)
  }

  enum Tally {
    struct State: Equatable { var count = 0 }
    enum Action: Sendable { case tapped }
    static let reducer = Reduce<State, Action> { state, action in
      state.count += 1
      return .none
    }
  }

  /// A feature with a child of each kind, each added by the sample of its method.
  enum Board {
    struct State: Equatable {
      var counter = Counter.State()
      var timer: Timer.State? = Timer.State()
      var rows = [Row.State(id: 1)]
    }
    enum Action: Sendable {
      case counter(Counter.Action), timer(Timer.Action), row(id: Int, Row.Action)
    }
    static func core(_ state: inout State, _ action: Action) -> Effect<Action> { .none }
  }
  enum WithCounter {
    typealias Action = Board.Action
    static let core = Board.core
    static let reducer = Reduce(core)
      .scope(\.counter, action: Action.counter, child: Counter.reduce)
  }
  enum WithTimer {
    typealias Action = Board.Action
    static let core = Board.core
    static let reducer = Reduce(core)
      .ifLet(\.timer, action: Action.timer, child: Timer.reduce)
  }
  enum WithRows {
    typealias Action = Board.Action
    static let core = Board.core
    static let reducer = Reduce(core)
      .forEach(\.rows, action: Action.row, child: Row.reduce)
  }
}

extension DocSamples {
  @Test("the Reduce samples compile, and each child gets its own actions")
  func reduceSamples() async throws {
    typealias Inbox = ReduceSamples.Inbox
    do {
      let store = Store(initialState: Inbox.State(), Inbox.reducer)
      store.send(.header(.increment))
      store.send(.row(id: 1, .toggle))
      #expect(store.header.count == 1 && store.rows[0].isDone)
    }
    do {
      let store = TestStore(initialState: Inbox.State(), Inbox.reducer)
      try await store.send(.sheet(.tick)) { $0.sheet?.seconds = 1 }
    }
    let tally = Store(initialState: ReduceSamples.Tally.State(), ReduceSamples.Tally.reducer)
    tally.send(.tapped)
    let board = Store(
      initialState: ReduceSamples.Board.State(),
      ReduceSamples.WithRows.reducer.reduce)
    board.send(.row(id: 1, .toggle))
    let counter = Store(
      initialState: ReduceSamples.Board.State(), ReduceSamples.WithCounter.reducer)
    counter.send(.counter(.increment))
    let timer = Store(initialState: ReduceSamples.Board.State(), ReduceSamples.WithTimer.reducer)
    timer.send(.timer(.tick))
    #expect(tally.count == 1 && board.rows[0].isDone && counter.counter.count == 1)
    #expect(timer.timer?.seconds == 1)
  }
}

// Sample: StackState, Reduce.forEach on a stack, and Reduce.scope on a case of an enum state
/// The samples of `StackState`: a stack of screens of two kinds, each kind a case of an enum.
enum StackSamples {
  enum List {
    struct State: Equatable {}
    enum Action: Sendable { case refresh }
    static func reduce(_ state: inout State, _ action: Action) -> Effect<Action> { .none }
  }
  enum Detail {
    struct State: Equatable { var taps = 0 }
    enum Action: Sendable { case tapped }
    static func reduce(_ state: inout State, _ action: Action) -> Effect<Action> {
      state.taps += 1
      return .none
    }
  }
  typealias Edit = Detail

  enum Path {
    enum State: Equatable {
      case list
      case detail(Detail.State)
      case edit(Edit.State)
      case alert(String)
    }
    enum Action: Sendable { case detail(Detail.Action), edit(Edit.Action), alert(Alert) }
    enum Alert: Sendable { case ok }

    static let reducer = Reduce<State, Action> { _, _ in .none }
      .scope(State.detail, action: Action.detail, child: Detail.reduce)
      .scope(State.edit, action: Action.edit, child: Edit.reduce)
      .scope(State.alert, action: Action.alert)
    static var reduce: Reducer<State, Action> { reducer.reduce }
  }

  enum App {
    struct State: Equatable { var path: StackState<Path.State> = [.list] }
    enum Action: Sendable { case push, pushAlert, path(id: Int, Path.Action) }
    static func core(_ state: inout State, _ action: Action) -> Effect<Action> {
      if case .push = action { state.path.append(.detail(Detail.State())) }
      if case .pushAlert = action { state.path.append(.alert("Saved")) }
      return .none
    }

    static let reducer = Reduce(core)
      .forEach(\.path, action: Action.path, child: Path.reduce)
  }
}

extension DocSamples {
  @Test("the StackState samples: ids from the stack, pops by id, and a screen per case")
  func stackSamples() {
    typealias Path = StackSamples.Path
    typealias Detail = StackSamples.Detail
    var path: StackState<Path.State> = [.list]
    path.append(.detail(Detail.State()))
    path.append(.detail(Detail.State()))
    let (list, top) = (path.ids[0], path.ids[2])
    path.pop(from: top)  // pops the screen `top` names and every screen above it
    path.pop(to: list)  // pops every screen above `list`
    path[id: list] = nil  // pops exactly that screen
    print(path.isEmpty)  // true
    #expect(path.isEmpty)

    let store = Store(initialState: StackSamples.App.State(), StackSamples.App.reducer)
    store.send(.push)
    store.send(.path(id: store.path.ids[1], .detail(.tapped)))
    #expect(store.path.count == 2 && store.path[1] == .detail(Detail.State(taps: 1)))
    // An alert, with no reducer of its own, closes on any of its actions.
    store.send(.pushAlert)
    store.send(.path(id: store.path.ids[2], .alert(.ok)))
    #expect(store.path.count == 2)
  }

  @Test("one case of an enum, read and written with subscript(case:)")
  func oneCase() {
    typealias Path = StackSamples.Path
    enum Destination {
      enum State: Equatable { case edit(Editor), alert(String) }
      struct Editor: Equatable { var title = "" }
    }
    struct Feature { var destination: Destination.State?, path: StackState<Path.State> }
    var state = Feature(destination: .edit(.init()), path: [.list, .detail(.init())])
    let id = state.path.ids[1]
    state.destination[case: Destination.State.edit]?.title = "Draft"
    state.path[id: id][case: Path.State.detail]?.taps += 1
    #expect(state.destination == .edit(.init(title: "Draft")))
    #expect(state.path[1] == .detail(StackSamples.Detail.State(taps: 1)))
  }
}

// MARK: - Coming from ReSwift and Redux (MigratingFromReSwift.md)

// Sample: Coming from ReSwift: a store and its reducer
/// The features of the article, each added in the region of its sample.
enum FromReSwift {
  struct Todos {
    struct State: Equatable {
      var items: [String] = []
      var filter = ""
    }
    enum Action {
      case add(String)
      case filterChanged(String)
    }

    static func reduce(_ state: inout State, _ action: Action) -> Effect<Action> {
      switch action {
      case .add(let item):
        state.items.append(item)
      case .filterChanged(let filter):
        state.filter = filter
      }
      return .none
    }
  }
}

@Suite("Article samples: Coming from ReSwift and Redux")
struct FromReSwiftSamples {
  typealias Todos = FromReSwift.Todos
  typealias App = FromReSwift.App
  typealias Search = FromReSwift.Search
  typealias Badge = FromReSwift.Badge
  typealias Editor = FromReSwift.Editor

  @Test("a store reduces each action with the feature's reducer") @MainActor
  func storeAndReducer() {
    let store = Store(initialState: Todos.State(), Todos.reduce)
    store.send(.add("Buy milk"))
    print(store.items)  // ["Buy milk"]
    #expect(store.items == ["Buy milk"])
  }
}

// Sample: Coming from ReSwift: middleware with parameters
@MainActor func analytics<State, Action>(
  _ reducer: @escaping Reducer<State, Action>,
  event: @escaping (Action) -> String?,
  track: @escaping @Sendable (String) async -> Void
) -> Reducer<State, Action> {
  return { state, action in
    let effect = reducer(&state, action)
    guard let name = event(action) else { return effect }
    return .merge(effect, .run { _ in await track(name) })
  }
}

extension FromReSwiftSamples {
  @Test("a middleware sees each action, logs it, and tracks the events it names as effects")
  @MainActor func middleware() async {
    let store = Store(
      initialState: Todos.State(),
      analytics(
        printChanges(Todos.reduce) { line in print("[todos]", line) },
        event: { action in if case .add = action { "todo_added" } else { nil } },
        track: { name in print("event:", name) }))
    await store.send(.add("Buy milk")).finish()
    #expect(store.items == ["Buy milk"])

    // The same middleware, with what it writes kept.
    var lines: [String] = []
    let events = Recorder<String>()
    let kept = Store(
      initialState: Todos.State(),
      analytics(
        printChanges(Todos.reduce) { line in lines.append("[todos] " + line) },
        event: { action in if case .add = action { "todo_added" } else { nil } },
        track: { name in events.append(name) }))
    await kept.send(.add("Buy milk")).finish()
    await kept.send(.filterChanged("milk")).finish()
    #expect(events.values == ["todo_added"])
    #expect(lines.count == 2 && lines[0].hasPrefix("[todos] received .add(\"Buy milk\")"))
  }
}

// Sample: Coming from ReSwift: select and skip repeats
extension FromReSwiftSamples {
  @Test("subscribe(to:) hears its part at once, then only after a send that changed it")
  @MainActor func selectAndSkipRepeats() {
    let store = Store(initialState: Todos.State(), Todos.reduce)
    store.send(.add("Buy milk"))
    var heard: [Int] = []
    let kept = store.subscribe(to: \.items.count) { heard.append($0) }
    let subscription = store.subscribe(to: \.items.count) { count in
      print("todos:", count)
    }
    store.send(.filterChanged("milk"))  // the count did not change: nothing printed
    store.send(.add("Call mom"))
    subscription.cancel()
    // todos: 1
    // todos: 2
    #expect(heard == [1, 2])
    kept.cancel()

    // A root store's subscribe hears of every send; subscribe(to: \.self) of those that changed.
    var (sends, changes) = (0, 0)
    let every = store.subscribe { _ in sends += 1 }
    let changed = store.subscribe(to: \.self) { _ in changes += 1 }
    store.send(.filterChanged("milk"))
    #expect(sends == 2 && changes == 1)
    every.cancel()
    changed.cancel()
  }
}

// Sample: Coming from ReSwift: a store of a part, with scope
extension FromReSwift {
  struct App {
    struct State {
      var todos = Todos.State()
      var isSyncing = false
    }
    enum Action {
      case todos(Todos.Action)
      case syncTapped
    }

    static let reducer = Reduce<State, Action> { state, action in
      if case .syncTapped = action { state.isSyncing = true }
      return .none
    }
    .scope(\.todos, action: Action.todos, child: Todos.reduce)
  }
}

extension FromReSwiftSamples {
  @Test("a scope of Equatable state sends through its parent and tells only of its part's changes")
  @MainActor func storeOfAPart() {
    let appStore = Store(initialState: App.State(), App.reducer)
    let todos: Store<Todos.State, Todos.Action> =
      appStore.scope(state: \.todos, action: App.Action.todos)
    todos.send(.add("Buy milk"))  // reduced by App.reducer as .todos(.add("Buy milk"))
    #expect(appStore.todos.items == ["Buy milk"])

    // Given a listener of the scope, when the app's state changes elsewhere, it hears nothing.
    var heard: [[String]] = []
    let subscription = todos.subscribe { heard.append($0.items) }
    appStore.send(.syncTapped)
    todos.send(.add("Call mom"))
    #expect(heard == [["Buy milk"], ["Buy milk", "Call mom"]])
    subscription.cancel()

    // A kept scope tells Observation of a change; a released one tells no one.
    let changes = Locked(0)
    withObservationTracking {
      _ = todos.items
    } onChange: {
      changes.withLock { $0 += 1 }
    }
    do {
      let released: Store<Todos.State, Todos.Action> =
        appStore.scope(state: \.todos, action: App.Action.todos)
      withObservationTracking {
        _ = released.items
      } onChange: {
        changes.withLock { $0 += 10 }
      }
    }
    appStore.send(.todos(.add("Walk the dog")))
    #expect(changes.withLock { $0 } == 1)
  }
}

// Sample: Coming from ReSwift: thunks become effects
extension FromReSwift {
  struct Search {
    struct State: Equatable {
      var query = ""
      var results: [String] = []
    }
    enum Action: Equatable {
      case queryChanged(String)
      case resultsLoaded([String])
      case cancelTapped
    }
    enum CancelID { case search }

    static func reducer(
      search: @escaping @Sendable (String) async throws -> [String]
    ) -> Reducer<State, Action> {
      return { state, action in
        switch action {
        case .queryChanged(let query):
          state.query = query
          return .run { send in
            await send(.resultsLoaded(try await search(query)))
          }
          .cancellable(id: CancelID.search, cancelInFlight: true)
        case .resultsLoaded(let results):
          state.results = results
          return .none
        case .cancelTapped:
          return .cancel(id: CancelID.search)
        }
      }
    }
  }
}

extension FromReSwiftSamples {
  @Test("a newer search cancels the older one, whose late results never land; cancelTapped stops")
  @MainActor func thunksBecomeEffects() async {
    // Given searches for "m" and "x" that wait until the test lets them answer
    let (slow, stopped) = (Gate(), Gate())
    let store = Store(
      initialState: Search.State(),
      Search.reducer { query in
        if query == "m" { await slow.wait() }
        if query == "x" { await stopped.wait() }
        return [query]
      })
    // When "milk" is typed while "m" is in flight
    let first = store.send(.queryChanged("m"))
    let second = store.send(.queryChanged("milk"))
    await finished(second)
    slow.open()
    await finished(first)
    // Then only the newer search's results land
    #expect(store.results == ["milk"])

    // When a search is cancelled, its results never land either.
    let third = store.send(.queryChanged("x"))
    store.send(.cancelTapped)
    stopped.open()
    await finished(third)
    #expect(store.query == "x" && store.results == ["milk"])
  }
}

// Sample: Coming from ReSwift: subscribers and their lifetime
extension FromReSwift {
  @MainActor final class Badge {
    private(set) var text = ""
    private var subscription: StoreSubscription?

    func start(_ store: Store<Todos.State, Todos.Action>) {
      subscription = store.subscribe(to: \.items.count) { [weak self] count in
        self?.text = "\(count) to do"
      }
    }

    func stop() {
      subscription?.cancel()
    }
  }
}

extension FromReSwiftSamples {
  /// Something a listener captures, to see when the listener is released.
  final class Captured {}

  @Test("a listener lives until cancel() or the root store's release, not its subscription's")
  @MainActor func subscriberLifetime() {
    let store = Store(initialState: Todos.State(), Todos.reduce)
    let badge = Badge()
    badge.start(store)
    store.send(.add("Buy milk"))
    #expect(badge.text == "1 to do")
    badge.stop()
    store.send(.add("Call mom"))
    #expect(badge.text == "1 to do")

    // A dropped subscription does not stop its listener.
    var heard: [Int] = []
    store.subscribe(to: \.items.count) { heard.append($0) }
    store.send(.add("Walk the dog"))
    #expect(heard == [2, 3])

    // A badge released without stop() is not kept alive by the store: it captured itself weakly.
    weak var released: Badge?
    do {
      let forgotten = Badge()
      forgotten.start(store)
      released = forgotten
    }
    #expect(released == nil)
    store.send(.add("Water the plants"))

    // Releasing the root store releases its listeners, and what they captured.
    weak var captured: Captured?
    do {
      let root = Store(initialState: Todos.State(), Todos.reduce)
      let value = Captured()
      captured = value
      root.subscribe { _ in _ = value }
    }
    #expect(captured == nil)
  }
}

// Sample: Coming from ReSwift: undo
struct Undoable<State> {
  var present: State
  var past: [State] = []
}

@MainActor func undoable<State, Action>(
  _ reducer: @escaping Reducer<State, Action>,
  isUndo: @escaping (Action) -> Bool
) -> Reducer<Undoable<State>, Action> {
  return { history, action in
    if isUndo(action) {
      history.present = history.past.popLast() ?? history.present
      return .none
    }
    history.past.append(history.present)
    return reducer(&history.present, action)
  }
}

extension FromReSwift {
  enum Editor {
    struct State { var text = "" }
    enum Action: Equatable { case typed(String), undo }
    static func reduce(_ state: inout State, _ action: Action) -> Effect<Action> {
      if case .typed(let text) = action { state.text = text }
      return .none
    }
  }
}

extension FromReSwiftSamples {
  @Test("undoable keeps the states before each action, and an undo brings back the last one")
  @MainActor func undo() {
    let editor = Store(
      initialState: Undoable(present: Editor.State()),
      undoable(Editor.reduce, isUndo: { $0 == .undo }))
    editor.send(.typed("Hello"))
    editor.send(.typed("Hello, world"))
    editor.send(.undo)
    print(editor.present.text)  // Hello
    #expect(editor.present.text == "Hello" && editor.past.count == 1)
    editor.send(.undo)
    editor.send(.undo)
    #expect(editor.present.text == "" && editor.past.isEmpty)
  }
}

// Sample: Coming from ReSwift: testing
extension FromReSwiftSamples {
  @Test("a search lands its results") @MainActor
  func searchLandsResults() async throws {
    let store = TestStore(initialState: Search.State(), Search.reducer { query in [query] })
    store.timeout = patience
    try await store.send(.queryChanged("milk")) { $0.query = "milk" }
    try await store.receive(.resultsLoaded(["milk"])) { $0.results = ["milk"] }
    try await store.finish()
  }

  @Test("the listener hears the count when it changes") @MainActor
  func listenerHearsCount() {
    let store = Store(initialState: Todos.State(), Todos.reduce)
    var heard: [Int] = []
    let subscription = store.subscribe(to: \.items.count) { heard.append($0) }
    store.send(.add("Buy milk"))
    store.send(.filterChanged("milk"))
    #expect(heard == [0, 1])
    subscription.cancel()
  }

  @Test("the logger writes each action") @MainActor
  func loggerWritesEachAction() {
    var lines: [String] = []
    let store = Store(initialState: Todos.State(), printChanges(Todos.reduce) { lines.append($0) })
    store.send(.add("Buy milk"))
    #expect(lines.count == 1 && lines[0].hasPrefix("received .add(\"Buy milk\")"))
  }
}

// Sample: Coming from ReSwift: a script waits for a send's work
extension FromReSwiftSamples {
  @Test("a script awaits a send's effects, then reads what they sent back")
  @MainActor func scriptAwaitsASend() async {
    let api = DocStubs.api
    let done = await bounded(patience) {
      let store = Store(
        initialState: Search.State(), Search.reducer { query in try await api.search(query) })
      await store.send(.queryChanged("milk")).finish()
      print(store.state.results)  // ["milk"]
      return store.results
    }
    #expect(done == ["milk"])
  }

  @Test("a for await loop over states sees the results an effect sent back")
  @MainActor func statesInALoop() async {
    let api = DocStubs.api
    let done = await bounded(patience) {
      let store = Store(
        initialState: Search.State(), Search.reducer { query in try await api.search(query) })
      store.send(.queryChanged("milk"))
      for await state in store.states where !state.results.isEmpty {
        print(state.results)  // ["milk"]
        break
      }
      return store.results
    }
    #expect(done == ["milk"])
  }
}
