import Foundation
import MiniRedux
import Testing

// Ports of the tests of TCA's example apps (Examples/ in pointfreeco/swift-composable-architecture):
// the effects and higher-order reducer case studies, the navigation stack case study (whose test
// TCA has since removed), Search, Todos, VoiceMemos, SpeechRecognition, TicTacToe and SyncUps. Each
// feature is rewritten as a TCA user moving their app would write it with MiniRedux: `@Dependency`
// becomes a parameter of the function that builds the reducer (a `TestClock` for time),
// `BindableAction` one action per field, `AlertState` plain state, `@Shared` delegate actions to
// the parent, `@Dependency(\.dismiss)` `.dismiss` or `send.dismiss()`. Each test names the TCA test
// it ports; one suite drives the features with a plain `Store`, as the apps' views do. Where
// MiniRedux behaves differently, the TCA expectation is kept in `withKnownIssue`, named after the
// difference.

// MARK: - Helpers

/// TCA's `Result { try await ... }`, which swift-dependencies adds for async work.
func exResult<T>(_ body: () async throws -> T) async -> Result<T, any Error> {
  do { return .success(try await body()) } catch { return .failure(error) }
}

/// Whether a `Result` is a success: TCA's `\.response.success` in a `receive`.
func exIsSuccess<T>(_ result: Result<T, any Error>) -> Bool {
  if case .success = result { true } else { false }
}

/// swift-dependencies' `UUID(0)`: 00000000-0000-0000-0000-000000000000, and so on.
func exUUID(_ value: Int) -> UUID {
  UUID(uuidString: String(format: "00000000-0000-0000-0000-%012X", value))!
}

/// swift-dependencies' `UUIDGenerator.incrementing`, as a main-actor closure the reducer calls.
@MainActor func exIncrementingUUID() -> @MainActor () -> UUID {
  var next = 0
  return {
    defer { next += 1 }
    return exUUID(next)
  }
}

/// A dependency a test does not expect to be called: it records an issue, as `unimplemented`.
struct ExUnimplemented: Error {}

/// Removes the elements at `offsets`: SwiftUI's `remove(atOffsets:)`, which Linux lacks.
extension Array {
  mutating func exRemove(atOffsets offsets: [Int]) {
    for offset in offsets.sorted(by: >) { remove(at: offset) }
  }
  /// SwiftUI's `move(fromOffsets:toOffset:)`.
  mutating func exMove(fromOffsets source: [Int], toOffset destination: Int) {
    let moving = source.sorted().map { self[$0] }
    let before = source.filter { $0 < destination }.count
    exRemove(atOffsets: source)
    insert(contentsOf: moving, at: destination - before)
  }
}

// MARK: - Effects case studies (03-Effects-Basics, Cancellation, LongLiving, Refreshable, Timers)

enum ExEffectsBasics {
  struct State: Equatable {
    var count = 0
    var isNumberFactRequestInFlight = false
    var numberFact: String?
  }
  enum Action: Sendable {
    case decrementButtonTapped, decrementDelayResponse, incrementButtonTapped
    case numberFactButtonTapped, numberFactResponse(Result<String, any Error>)
  }
  enum CancelID { case delay }

  static func reducer(
    clock: some Clock<Duration>,
    fact: @escaping @Sendable (Int) async throws -> String = { _ in throw ExUnimplemented() }
  ) -> Reducer<State, Action> {
    { state, action in
      switch action {
      case .decrementButtonTapped:
        state.count -= 1
        state.numberFact = nil
        return state.count >= 0
          ? .none
          : .run { send in
            try await clock.sleep(for: .seconds(1))
            await send(.decrementDelayResponse)
          }
          .cancellable(id: CancelID.delay)
      case .decrementDelayResponse:
        if state.count < 0 { state.count += 1 }
        return .none
      case .incrementButtonTapped:
        state.count += 1
        state.numberFact = nil
        return state.count >= 0 ? .cancel(id: CancelID.delay) : .none
      case .numberFactButtonTapped:
        state.isNumberFactRequestInFlight = true
        state.numberFact = nil
        return .run { [count = state.count] send in
          await send(.numberFactResponse(await exResult { try await fact(count) }))
        }
      case .numberFactResponse(.success(let response)):
        state.isNumberFactRequestInFlight = false
        state.numberFact = response
        return .none
      case .numberFactResponse(.failure):
        state.isNumberFactRequestInFlight = false
        return .none
      }
    }
  }
}

enum ExEffectsCancellation {
  struct State: Equatable {
    var count = 0
    var currentFact: String?
    var isFactRequestInFlight = false
  }
  enum Action: Sendable {
    case cancelButtonTapped, stepperChanged(Int), factButtonTapped
    case factResponse(Result<String, any Error>)
  }
  enum CancelID { case factRequest }

  static func reducer(fact: @escaping @Sendable (Int) async throws -> String)
    -> Reducer<State, Action>
  {
    { state, action in
      switch action {
      case .cancelButtonTapped:
        state.isFactRequestInFlight = false
        return .cancel(id: CancelID.factRequest)
      case .stepperChanged(let value):
        state.count = value
        state.currentFact = nil
        state.isFactRequestInFlight = false
        return .cancel(id: CancelID.factRequest)
      case .factButtonTapped:
        state.currentFact = nil
        state.isFactRequestInFlight = true
        return .run { [count = state.count] send in
          await send(.factResponse(await exResult { try await fact(count) }))
        }
        .cancellable(id: CancelID.factRequest)
      case .factResponse(.success(let response)):
        state.isFactRequestInFlight = false
        state.currentFact = response
        return .none
      case .factResponse(.failure):
        state.isFactRequestInFlight = false
        return .none
      }
    }
  }
}

enum ExLongLiving {
  struct State: Equatable { var screenshotCount = 0 }
  enum Action: Equatable, Sendable { case task, userDidTakeScreenshotNotification }

  static func reducer(screenshots: @escaping @Sendable () async -> AsyncStream<Void>)
    -> Reducer<State, Action>
  {
    { state, action in
      switch action {
      case .task:
        return .run { send in
          for await _ in await screenshots() {
            await send(.userDidTakeScreenshotNotification)
          }
        }
      case .userDidTakeScreenshotNotification:
        state.screenshotCount += 1
        return .none
      }
    }
  }
}

enum ExRefreshable {
  struct State: Equatable {
    var count = 0
    var fact: String?
  }
  enum Action: Sendable {
    case cancelButtonTapped, decrementButtonTapped, incrementButtonTapped, refresh
    case factResponse(Result<String, any Error>)
  }
  enum CancelID { case factRequest }

  static func reducer(fact: @escaping @Sendable (Int) async throws -> String)
    -> Reducer<State, Action>
  {
    { state, action in
      switch action {
      case .cancelButtonTapped:
        return .cancel(id: CancelID.factRequest)
      case .decrementButtonTapped:
        state.count -= 1
        return .none
      case .factResponse(.success(let fact)):
        state.fact = fact
        return .none
      case .factResponse(.failure):
        return .none
      case .incrementButtonTapped:
        state.count += 1
        return .none
      case .refresh:
        state.fact = nil
        return .run { [count = state.count] send in
          await send(.factResponse(await exResult { try await fact(count) }))
        }
        .cancellable(id: CancelID.factRequest)
      }
    }
  }
}

enum ExTimers {
  struct State: Equatable {
    var isTimerActive = false
    var secondsElapsed = 0
  }
  enum Action: Equatable, Sendable { case onDisappear, timerTicked, toggleTimerButtonTapped }
  enum CancelID { case timer }

  static func reducer(clock: some Clock<Duration>) -> Reducer<State, Action> {
    { state, action in
      switch action {
      case .onDisappear:
        return .cancel(id: CancelID.timer)
      case .timerTicked:
        state.secondsElapsed += 1
        return .none
      case .toggleTimerButtonTapped:
        state.isTimerActive.toggle()
        return .run { [isTimerActive = state.isTimerActive] send in
          guard isTimerActive else { return }
          while true {
            try await clock.sleep(for: .seconds(1))
            await send(.timerTicked)
          }
        }
        .cancellable(id: CancelID.timer, cancelInFlight: true)
      }
    }
  }
}

@MainActor
@Suite("Example apps port: effects case studies (SwiftUICaseStudiesTests 03-Effects-*)")
struct ExampleAppPortEffectsTests {
  @Test("count up and down, no effect (EffectsBasicsTests.countDown)")
  func basicsCountDown() async throws {
    let store = TestStore(
      initialState: ExEffectsBasics.State(),
      ExEffectsBasics.reducer(clock: ImmediateTestClock()))
    try await store.send(.incrementButtonTapped) { $0.count = 1 }
    try await store.send(.decrementButtonTapped) { $0.count = 0 }
  }

  @Test("a fact is fetched and shown (EffectsBasicsTests.numberFact)")
  func basicsNumberFact() async throws {
    let store = TestStore(
      initialState: ExEffectsBasics.State(),
      ExEffectsBasics.reducer(clock: ImmediateTestClock()) { "\($0) is a good number Brent" })
    store.timeout = patience
    try await store.send(.incrementButtonTapped) { $0.count = 1 }
    try await store.send(.numberFactButtonTapped) { $0.isNumberFactRequestInFlight = true }
    try await store.receive(ExEffectsBasics.Action.numberFactResponse, where: exIsSuccess) {
      $0.isNumberFactRequestInFlight = false
      $0.numberFact = "1 is a good number Brent"
    }
  }

  @Test("a negative count comes back after a delay (EffectsBasicsTests.decrement)")
  func basicsDecrement() async throws {
    let store = TestStore(
      initialState: ExEffectsBasics.State(),
      ExEffectsBasics.reducer(clock: ImmediateTestClock()))
    store.timeout = patience
    try await store.send(.decrementButtonTapped) { $0.count = -1 }
    try await store.receive({
      if case .decrementDelayResponse = $0 { true } else { false }
    }) {
      $0.count = 0
    }
  }

  @Test("incrementing cancels the delayed increment (EffectsBasicsTests.decrementCancellation)")
  func basicsDecrementCancellation() async throws {
    let store = TestStore(
      initialState: ExEffectsBasics.State(), ExEffectsBasics.reducer(clock: TestClock()))
    try await store.send(.decrementButtonTapped) { $0.count = -1 }
    try await store.send(.incrementButtonTapped) { $0.count = 0 }
  }

  @Test("a fact request succeeds (EffectsCancellationTests.successfulRequest)")
  func cancellationSuccessfulRequest() async throws {
    let store = TestStore(
      initialState: ExEffectsCancellation.State(),
      ExEffectsCancellation.reducer { "\($0) is a good number Brent" })
    store.timeout = patience
    try await store.send(.stepperChanged(1)) { $0.count = 1 }
    try await store.send(.stepperChanged(0)) { $0.count = 0 }
    try await store.send(.factButtonTapped) { $0.isFactRequestInFlight = true }
    try await store.receive(ExEffectsCancellation.Action.factResponse, where: exIsSuccess) {
      $0.currentFact = "0 is a good number Brent"
      $0.isFactRequestInFlight = false
    }
  }

  @Test("a fact request fails (EffectsCancellationTests.failedRequest)")
  func cancellationFailedRequest() async throws {
    let store = TestStore(
      initialState: ExEffectsCancellation.State(),
      ExEffectsCancellation.reducer { _ in throw ExUnimplemented() })
    store.timeout = patience
    try await store.send(.factButtonTapped) { $0.isFactRequestInFlight = true }
    try await store.receive(ExEffectsCancellation.Action.factResponse, where: { !exIsSuccess($0) })
    {
      $0.isFactRequestInFlight = false
    }
  }

  @Test(
    "the cancel button cancels the request (EffectsCancellationTests.cancelButtonCancelsRequest)")
  func cancellationCancelButton() async throws {
    let store = TestStore(
      initialState: ExEffectsCancellation.State(),
      ExEffectsCancellation.reducer { _ in
        await untilCancelled()
        throw CancellationError()
      })
    try await store.send(.factButtonTapped) { $0.isFactRequestInFlight = true }
    try await store.send(.cancelButtonTapped) { $0.isFactRequestInFlight = false }
  }

  @Test("the stepper cancels the request (EffectsCancellationTests.plusMinusButtonsCancelsRequest)")
  func cancellationStepper() async throws {
    let store = TestStore(
      initialState: ExEffectsCancellation.State(),
      ExEffectsCancellation.reducer { _ in
        await untilCancelled()
        throw CancellationError()
      })
    try await store.send(.factButtonTapped) { $0.isFactRequestInFlight = true }
    try await store.send(.stepperChanged(1)) {
      $0.count = 1
      $0.isFactRequestInFlight = false
    }
  }

  @Test("screenshots are counted until the view goes away (LongLivingEffectsTests.basics)")
  func longLiving() async throws {
    let (screenshots, takeScreenshot) = AsyncStream.makeStream(of: Void.self)
    let store = TestStore(
      initialState: ExLongLiving.State(), ExLongLiving.reducer { screenshots })
    store.timeout = patience
    let task = try await store.send(.task)
    takeScreenshot.yield()
    try await store.receive(.userDidTakeScreenshotNotification) { $0.screenshotCount = 1 }
    task.cancel()
    takeScreenshot.yield()
  }

  @Test("refresh loads a fact (RefreshableTests.happyPath)")
  func refreshableHappyPath() async throws {
    let store = TestStore(
      initialState: ExRefreshable.State(), ExRefreshable.reducer { "\($0) is a good number." })
    store.timeout = patience
    try await store.send(.incrementButtonTapped) { $0.count = 1 }
    try await store.send(.refresh)
    try await store.receive(ExRefreshable.Action.factResponse, where: exIsSuccess) {
      $0.fact = "1 is a good number."
    }
  }

  @Test("refresh fails quietly (RefreshableTests.unhappyPath)")
  func refreshableUnhappyPath() async throws {
    let store = TestStore(
      initialState: ExRefreshable.State(), ExRefreshable.reducer { _ in throw ExUnimplemented() })
    store.timeout = patience
    try await store.send(.incrementButtonTapped) { $0.count = 1 }
    try await store.send(.refresh)
    try await store.receive(ExRefreshable.Action.factResponse, where: { !exIsSuccess($0) })
  }

  @Test("cancel ends the refresh, and the view's awaited task (RefreshableTests.cancellation)")
  func refreshableCancellation() async throws {
    let clock = TestClock()
    let store = TestStore(
      initialState: ExRefreshable.State(),
      ExRefreshable.reducer {
        try await clock.sleep(for: .seconds(1))
        return "\($0) is a good number."
      })
    try await store.send(.incrementButtonTapped) { $0.count = 1 }
    // The view awaits `store.send(.refresh).finish()` in `.refreshable`: it returns on cancel.
    let refresh = try await store.send(.refresh)
    try await store.send(.cancelButtonTapped)
    await refresh.finish()
    #expect(refresh.isCancelled)
  }

  @Test("a timer ticks each second until toggled off (TimersTests.basics)")
  func timers() async throws {
    let clock = TestClock()
    let store = TestStore(initialState: ExTimers.State(), ExTimers.reducer(clock: clock))
    store.timeout = patience
    try await store.send(.toggleTimerButtonTapped) { $0.isTimerActive = true }
    await clock.advance(by: .seconds(1))
    try await store.receive(.timerTicked) { $0.secondsElapsed = 1 }
    await clock.advance(by: .seconds(5))
    for seconds in 2...6 {
      try await store.receive(.timerTicked) { $0.secondsElapsed = seconds }
    }
    try await store.send(.toggleTimerButtonTapped) { $0.isTimerActive = false }
  }

  @Test("the timer test, ended with finish(), passes (TimersTests.basics)")
  func timersFinished() async throws {
    let clock = TestClock()
    let store = TestStore(initialState: ExTimers.State(), ExTimers.reducer(clock: clock))
    store.timeout = patience
    try await store.send(.toggleTimerButtonTapped) { $0.isTimerActive = true }
    await clock.advance(by: .seconds(1))
    try await store.receive(.timerTicked) { $0.secondsElapsed = 1 }
    await clock.advance(by: .seconds(5))
    for seconds in 2...6 {
      try await store.receive(.timerTicked) { $0.secondsElapsed = seconds }
    }
    try await store.send(.toggleTimerButtonTapped) { $0.isTimerActive = false }
    try await store.finish()
  }
}

// MARK: - Search (Examples/Search)

enum ExSearch {
  struct Location: Equatable, Identifiable, Sendable {
    var country: String
    var id: Int
    var name: String
  }
  struct Day: Equatable, Sendable {
    var date: Date
    var temperatureMax: Double
    var temperatureMin: Double
  }
  static let mockLocations = [
    Location(country: "United States", id: 1, name: "Brooklyn"),
    Location(country: "United States", id: 2, name: "Los Angeles"),
    Location(country: "United States", id: 3, name: "San Francisco"),
  ]
  static let mockForecast = [
    Day(date: Date(timeIntervalSince1970: 0), temperatureMax: 90, temperatureMin: 70),
    Day(date: Date(timeIntervalSince1970: 86_400), temperatureMax: 70, temperatureMin: 50),
    Day(date: Date(timeIntervalSince1970: 172_800), temperatureMax: 100, temperatureMin: 80),
  ]

  struct Weather: Equatable {
    var id: Int
    var days: [Day]
  }
  struct State: Equatable {
    var results: [Location] = []
    var resultForecastRequestInFlight: Location?
    var searchQuery = ""
    var weather: Weather?
  }
  enum Action: Sendable {
    case forecastResponse(Int, Result<[Day], any Error>)
    case searchQueryChanged(String)
    case searchQueryChangeDebounced
    case searchResponse(Result<[Location], any Error>)
    case searchResultTapped(Location)
  }
  enum CancelID { case location, weather }

  static func reducer(
    search: @escaping @Sendable (String) async throws -> [Location] = { _ in
      throw ExUnimplemented()
    },
    forecast: @escaping @Sendable (Location) async throws -> [Day] = { _ in
      throw ExUnimplemented()
    }
  ) -> Reducer<State, Action> {
    { state, action in
      switch action {
      case .forecastResponse(_, .failure):
        state.weather = nil
        state.resultForecastRequestInFlight = nil
        return .none
      case .forecastResponse(let id, .success(let days)):
        state.weather = Weather(id: id, days: days)
        state.resultForecastRequestInFlight = nil
        return .none
      case .searchQueryChanged(let query):
        state.searchQuery = query
        guard !query.isEmpty else {
          state.results = []
          state.weather = nil
          return .cancel(id: CancelID.location)
        }
        return .none
      case .searchQueryChangeDebounced:
        guard !state.searchQuery.isEmpty else { return .none }
        return .run { [query = state.searchQuery] send in
          await send(.searchResponse(await exResult { try await search(query) }))
        }
        .cancellable(id: CancelID.location)
      case .searchResponse(.failure):
        state.results = []
        return .none
      case .searchResponse(.success(let results)):
        state.results = results
        return .none
      case .searchResultTapped(let location):
        state.resultForecastRequestInFlight = location
        return .run { send in
          await send(
            .forecastResponse(location.id, await exResult { try await forecast(location) }))
        }
        .cancellable(id: CancelID.weather, cancelInFlight: true)
      }
    }
  }
}

@MainActor
@Suite("Example apps port: Search (SearchTests)")
struct ExampleAppPortSearchTests {
  let special = ExSearch.Location(country: "Special Country", id: 42, name: "Special Place")

  @Test("search, then clear the query (searchAndClearQuery)")
  func searchAndClearQuery() async throws {
    let store = TestStore(
      initialState: ExSearch.State(), ExSearch.reducer(search: { _ in ExSearch.mockLocations }))
    store.timeout = patience
    try await store.send(.searchQueryChanged("S")) { $0.searchQuery = "S" }
    try await store.send(.searchQueryChangeDebounced)
    try await store.receive(ExSearch.Action.searchResponse, where: exIsSuccess) {
      $0.results = ExSearch.mockLocations
    }
    try await store.send(.searchQueryChanged("")) {
      $0.results = []
      $0.searchQuery = ""
    }
  }

  @Test("a failed search (searchFailure)")
  func searchFailure() async throws {
    let store = TestStore(
      initialState: ExSearch.State(), ExSearch.reducer(search: { _ in throw ExUnimplemented() }))
    store.timeout = patience
    try await store.send(.searchQueryChanged("S")) { $0.searchQuery = "S" }
    try await store.send(.searchQueryChangeDebounced)
    try await store.receive(ExSearch.Action.searchResponse, where: { !exIsSuccess($0) })
  }

  @Test("clearing the query cancels the search (clearQueryCancelsInFlightSearchRequest)")
  func clearQueryCancelsInFlightSearchRequest() async throws {
    let store = TestStore(
      initialState: ExSearch.State(), ExSearch.reducer(search: { _ in ExSearch.mockLocations }))
    let searchQueryChanged = try await store.send(.searchQueryChanged("S")) { $0.searchQuery = "S" }
    searchQueryChanged.cancel()
    try await store.send(.searchQueryChanged("")) { $0.searchQuery = "" }
  }

  @Test("tapping a location loads its forecast (tapOnLocation)")
  func tapOnLocation() async throws {
    let store = TestStore(
      initialState: ExSearch.State(results: ExSearch.mockLocations + [special]),
      ExSearch.reducer(forecast: { _ in ExSearch.mockForecast }))
    store.timeout = patience
    try await store.send(.searchResultTapped(special)) {
      $0.resultForecastRequestInFlight = special
    }
    try await store.receive(ExSearch.Action.forecastResponse) {
      $0.resultForecastRequestInFlight = nil
      $0.weather = ExSearch.Weather(id: 42, days: ExSearch.mockForecast)
    }
  }

  @Test("a second tap cancels the first forecast (tapOnLocationCancelsInFlightRequest)")
  func tapOnLocationCancelsInFlightRequest() async throws {
    let clock = TestClock()
    let results = ExSearch.mockLocations + [special]
    let store = TestStore(
      initialState: ExSearch.State(results: results),
      ExSearch.reducer(forecast: { _ in
        try await clock.sleep(for: .seconds(0))
        return ExSearch.mockForecast
      }))
    store.timeout = patience
    try await store.send(.searchResultTapped(results[0])) {
      $0.resultForecastRequestInFlight = results[0]
    }
    try await store.send(.searchResultTapped(special)) {
      $0.resultForecastRequestInFlight = special
    }
    await clock.advance()
    try await store.receive(ExSearch.Action.forecastResponse) {
      $0.resultForecastRequestInFlight = nil
      $0.weather = ExSearch.Weather(id: 42, days: ExSearch.mockForecast)
    }
  }

  @Test("a failed forecast (tapOnLocationFailure)")
  func tapOnLocationFailure() async throws {
    let results = ExSearch.mockLocations
    let store = TestStore(
      initialState: ExSearch.State(results: results),
      ExSearch.reducer(forecast: { _ in throw ExUnimplemented() }))
    store.timeout = patience
    try await store.send(.searchResultTapped(results[0])) {
      $0.resultForecastRequestInFlight = results[0]
    }
    try await store.receive(ExSearch.Action.forecastResponse) {
      $0.resultForecastRequestInFlight = nil
    }
  }
}

// MARK: - Todos (Examples/Todos)

enum ExTodo {
  struct State: Equatable, Identifiable {
    var description = ""
    let id: UUID
    var isComplete = false
  }
  /// TCA's `BindableAction`: one action per field.
  enum Action: Equatable, Sendable { case descriptionChanged(String), isCompleteChanged(Bool) }

  static let reducer: Reducer<State, Action> = { state, action in
    switch action {
    case .descriptionChanged(let description): state.description = description
    case .isCompleteChanged(let isComplete): state.isComplete = isComplete
    }
    return .none
  }
}

enum ExTodos {
  enum Filter: Equatable, Sendable { case all, active, completed }
  struct State: Equatable {
    var isEditing = false  // SwiftUI's `EditMode`, which Linux lacks.
    var filter = Filter.all
    var todos: [ExTodo.State] = []

    var filteredTodos: [ExTodo.State] {
      switch filter {
      case .active: todos.filter { !$0.isComplete }
      case .all: todos
      case .completed: todos.filter(\.isComplete)
      }
    }
  }
  enum Action: Equatable, Sendable {
    case addTodoButtonTapped, clearCompletedButtonTapped
    case delete([Int]), move([Int], Int)
    case editModeChanged(Bool), filterChanged(Filter)
    case sortCompletedTodos
    case todos(id: UUID, ExTodo.Action)
  }
  enum CancelID { case todoCompletion }

  static func reducer(
    clock: some Clock<Duration> = ImmediateTestClock(),
    uuid: @escaping @MainActor () -> UUID = { UUID() }
  ) -> Reduce<State, Action> {
    Reduce<State, Action> { state, action in
      switch action {
      case .addTodoButtonTapped:
        state.todos.insert(ExTodo.State(id: uuid()), at: 0)
        return .none
      case .clearCompletedButtonTapped:
        state.todos.removeAll(where: \.isComplete)
        return .none
      case .delete(let offsets):
        let filtered = state.filteredTodos
        for offset in offsets {
          state.todos.removeAll { $0.id == filtered[offset].id }
        }
        return .none
      case .move(var source, var destination):
        if state.filter == .completed {
          let filtered = state.filteredTodos
          source = source.compactMap { offset in
            state.todos.firstIndex { $0.id == filtered[offset].id }
          }
          destination =
            (destination < filtered.endIndex
              ? state.todos.firstIndex { $0.id == filtered[destination].id }
              : state.todos.endIndex) ?? destination
        }
        state.todos.exMove(fromOffsets: source, toOffset: destination)
        return .run { send in
          try await clock.sleep(for: .milliseconds(100))
          await send(.sortCompletedTodos)
        }
      case .editModeChanged(let isEditing):
        state.isEditing = isEditing
        return .none
      case .filterChanged(let filter):
        state.filter = filter
        return .none
      case .sortCompletedTodos:
        state.todos.sort { $1.isComplete && !$0.isComplete }
        return .none
      case .todos(_, .isCompleteChanged):
        return .run { send in
          try await clock.sleep(for: .seconds(1))
          await send(.sortCompletedTodos)
        }
        .cancellable(id: CancelID.todoCompletion, cancelInFlight: true)
      case .todos:
        return .none
      }
    }
    .forEach(\.todos, action: Action.todos, child: ExTodo.reducer)
  }

  static func todos(_ completed: Bool...) -> State {
    State(todos: completed.enumerated().map { ExTodo.State(id: exUUID($0), isComplete: $1) })
  }
}

@MainActor
@Suite("Example apps port: Todos (TodosTests)")
struct ExampleAppPortTodosTests {
  @Test("add two todos, newest first (add)")
  func add() async throws {
    let store = TestStore(
      initialState: ExTodos.State(), ExTodos.reducer(uuid: exIncrementingUUID()))
    try await store.send(.addTodoButtonTapped) {
      $0.todos.insert(ExTodo.State(id: exUUID(0)), at: 0)
    }
    try await store.send(.addTodoButtonTapped) {
      $0.todos = [ExTodo.State(id: exUUID(1)), ExTodo.State(id: exUUID(0))]
    }
  }

  @Test("edit a todo's description (edit)")
  func edit() async throws {
    let store = TestStore(initialState: ExTodos.todos(false), ExTodos.reducer())
    try await store.send(.todos(id: exUUID(0), .descriptionChanged("Learn MiniRedux"))) {
      $0.todos[0].description = "Learn MiniRedux"
    }
  }

  @Test("completing a todo sorts it last a second later (complete)")
  func complete() async throws {
    let clock = TestClock()
    let store = TestStore(initialState: ExTodos.todos(false, false), ExTodos.reducer(clock: clock))
    store.timeout = patience
    try await store.send(.todos(id: exUUID(0), .isCompleteChanged(true))) {
      $0.todos[0].isComplete = true
    }
    await clock.advance(by: .seconds(1))
    try await store.receive(.sortCompletedTodos) { $0.todos = [$0.todos[1], $0.todos[0]] }
  }

  @Test("completing twice in a second sorts once (completionDebounce)")
  func completionDebounce() async throws {
    let clock = TestClock()
    let store = TestStore(initialState: ExTodos.todos(false, false), ExTodos.reducer(clock: clock))
    store.timeout = patience
    try await store.send(.todos(id: exUUID(0), .isCompleteChanged(true))) {
      $0.todos[0].isComplete = true
    }
    await clock.advance(by: .milliseconds(500))
    try await store.send(.todos(id: exUUID(0), .isCompleteChanged(false))) {
      $0.todos[0].isComplete = false
    }
    await clock.advance(by: .seconds(1))
    try await store.receive(.sortCompletedTodos)
  }

  @Test("the completion debounce spans rows: another row's toggle replaces it")
  func completionDebounceAcrossRows() async throws {
    // Not in TCA's tests, but what its reducer does: the debounce is the parent's, under one id.
    let clock = TestClock()
    let store = TestStore(initialState: ExTodos.todos(false, false), ExTodos.reducer(clock: clock))
    store.timeout = patience
    try await store.send(.todos(id: exUUID(0), .isCompleteChanged(true))) {
      $0.todos[0].isComplete = true
    }
    await clock.advance(by: .milliseconds(500))
    try await store.send(.todos(id: exUUID(1), .isCompleteChanged(true))) {
      $0.todos[1].isComplete = true
    }
    await clock.advance(by: .milliseconds(500))
    await clock.advance(by: .milliseconds(500))
    try await store.receive(.sortCompletedTodos)
    try await store.finish()
  }

  @Test("clear completed (clearCompleted)")
  func clearCompleted() async throws {
    let store = TestStore(initialState: ExTodos.todos(false, true), ExTodos.reducer())
    try await store.send(.clearCompletedButtonTapped) { $0.todos = [$0.todos[0]] }
  }

  @Test("delete a todo (delete)")
  func delete() async throws {
    let store = TestStore(initialState: ExTodos.todos(false, false, false), ExTodos.reducer())
    try await store.send(.delete([1])) { $0.todos = [$0.todos[0], $0.todos[2]] }
  }

  @Test("delete from a filtered list (filteredDelete)")
  func filteredDelete() async throws {
    var state = ExTodos.todos(false, false, true)
    state.filter = .completed
    let store = TestStore(initialState: state, ExTodos.reducer())
    try await store.send(.delete([0])) { $0.todos = [$0.todos[0], $0.todos[1]] }
  }

  @Test("move a todo, then sort (editModeMove)")
  func editModeMove() async throws {
    let clock = TestClock()
    let store = TestStore(
      initialState: ExTodos.todos(false, false, false), ExTodos.reducer(clock: clock))
    store.timeout = patience
    try await store.send(.editModeChanged(true)) { $0.isEditing = true }
    try await store.send(.move([0], 2)) { $0.todos = [$0.todos[1], $0.todos[0], $0.todos[2]] }
    await clock.advance(by: .milliseconds(100))
    try await store.receive(.sortCompletedTodos)
  }

  @Test("move within a filtered list (filteredEditModeMove)")
  func filteredEditModeMove() async throws {
    let clock = TestClock()
    let store = TestStore(
      initialState: ExTodos.todos(false, false, true, true),
      ExTodos.reducer(clock: clock, uuid: exIncrementingUUID()))
    store.timeout = patience
    try await store.send(.editModeChanged(true)) { $0.isEditing = true }
    try await store.send(.filterChanged(.completed)) { $0.filter = .completed }
    try await store.send(.move([0], 2)) {
      $0.todos = [$0.todos[0], $0.todos[1], $0.todos[3], $0.todos[2]]
    }
    await clock.advance(by: .milliseconds(100))
    try await store.receive(.sortCompletedTodos)
  }

  @Test("edit a todo of a filtered list (filteredEdit)")
  func filteredEdit() async throws {
    let store = TestStore(initialState: ExTodos.todos(false, true), ExTodos.reducer())
    try await store.send(.filterChanged(.completed)) { $0.filter = .completed }
    try await store.send(.todos(id: exUUID(1), .descriptionChanged("Did this already"))) {
      $0.todos[1].description = "Did this already"
    }
  }
}

// MARK: - VoiceMemos (Examples/VoiceMemos)

/// The audio clients, as closures.
struct ExAudio: Sendable {
  var play: @Sendable (URL) async throws -> Bool = { _ in throw ExUnimplemented() }
  var currentTime: @Sendable () async -> TimeInterval? = { nil }
  var requestRecordPermission: @Sendable () async -> Bool = { false }
  var startRecording: @Sendable (URL) async throws -> Bool = { _ in throw ExUnimplemented() }
  var stopRecording: @Sendable () async -> Void = {}
  var openSettings: @Sendable () async -> Void = {}
}

enum ExVoiceMemo {
  enum Mode: Equatable, Sendable {
    case notPlaying
    case playing(progress: Double)
  }
  struct State: Equatable, Identifiable {
    var date: Date
    var duration: TimeInterval
    var mode = Mode.notPlaying
    var title = ""
    var url: URL
    var id: URL { url }
  }
  enum Action: Sendable {
    case audioPlayerClient(Result<Bool, any Error>)
    case delegate(Delegate)
    case playButtonTapped
    case timerUpdated(TimeInterval)
    case titleTextFieldChanged(String)
  }
  enum Delegate: Equatable, Sendable { case playbackStarted, playbackFailed }
  enum CancelID { case play }

  static func reducer(audio: ExAudio, clock: some Clock<Duration>) -> Reducer<State, Action> {
    { state, action in
      switch action {
      case .audioPlayerClient(.failure):
        state.mode = .notPlaying
        return .merge(.cancel(id: CancelID.play), .send(.delegate(.playbackFailed)))
      case .audioPlayerClient:
        state.mode = .notPlaying
        return .cancel(id: CancelID.play)
      case .delegate:
        return .none
      case .playButtonTapped:
        switch state.mode {
        case .notPlaying:
          state.mode = .playing(progress: 0)
          return .run { [url = state.url] send in
            await send(.delegate(.playbackStarted))
            async let playAudio: Void = send(
              .audioPlayerClient(await exResult { try await audio.play(url) }))
            var start: TimeInterval = 0
            while (try? await clock.sleep(for: .milliseconds(500))) != nil {
              start += 0.5
              await send(.timerUpdated(start))
            }
            await playAudio
          }
          .cancellable(id: CancelID.play, cancelInFlight: true)
        case .playing:
          state.mode = .notPlaying
          return .cancel(id: CancelID.play)
        }
      case .timerUpdated(let time):
        if case .playing = state.mode { state.mode = .playing(progress: time / state.duration) }
        return .none
      case .titleTextFieldChanged(let text):
        state.title = text
        return .none
      }
    }
  }
}

enum ExRecordingMemo {
  enum Mode: Equatable, Sendable { case recording, encoding }
  struct State: Equatable, Sendable {
    var date: Date
    var duration: TimeInterval = 0
    var mode = Mode.recording
    var url: URL
  }
  enum Action: Sendable {
    case audioRecorderDidFinish(Result<Bool, any Error>)
    case delegate(Delegate)
    case finalRecordingTime(TimeInterval)
    case onTask, timerUpdated, stopButtonTapped
  }
  enum Delegate: Sendable { case didFinish(Result<State, any Error>) }
  struct Failed: Error {}

  static func reducer(audio: ExAudio, clock: some Clock<Duration>) -> Reducer<State, Action> {
    { state, action in
      switch action {
      case .audioRecorderDidFinish(.success(true)):
        return .send(.delegate(.didFinish(.success(state))))
      case .audioRecorderDidFinish(.success(false)):
        return .send(.delegate(.didFinish(.failure(Failed()))))
      case .audioRecorderDidFinish(.failure(let error)):
        return .send(.delegate(.didFinish(.failure(error))))
      case .delegate:
        return .none
      case .finalRecordingTime(let duration):
        state.duration = duration
        return .none
      case .stopButtonTapped:
        state.mode = .encoding
        return .run { send in
          if let currentTime = await audio.currentTime() {
            await send(.finalRecordingTime(currentTime))
          }
          await audio.stopRecording()
        }
      case .onTask:
        return .run { [url = state.url] send in
          async let startRecording: Void = send(
            .audioRecorderDidFinish(await exResult { try await audio.startRecording(url) }))
          while (try? await clock.sleep(for: .seconds(1))) != nil {
            await send(.timerUpdated)
          }
          await startRecording
        }
      case .timerUpdated:
        state.duration += 1
        return .none
      }
    }
  }
}

enum ExVoiceMemos {
  enum Permission: Equatable, Sendable { case allowed, denied, undetermined }
  struct State: Equatable {
    var alert: String?  // TCA's `AlertState`: the view builds the alert from its message.
    var audioRecorderPermission = Permission.undetermined
    var recordingMemo: ExRecordingMemo.State?
    var voiceMemos: [ExVoiceMemo.State] = []
  }
  enum AlertAction: Equatable, Sendable { case dismiss }
  enum Action: Sendable {
    case alert(AlertAction)
    case onDelete([Int])
    case openSettingsButtonTapped, recordButtonTapped
    case recordPermissionResponse(Bool)
    case recordingMemo(ExRecordingMemo.Action)
    case voiceMemos(id: URL, ExVoiceMemo.Action)
  }

  static func reducer(
    audio: ExAudio, clock: some Clock<Duration>, date: Date = Date(),
    uuid: @escaping @MainActor () -> UUID = { UUID() }
  ) -> Reduce<State, Action> {
    let newRecordingMemo: @MainActor () -> ExRecordingMemo.State = {
      ExRecordingMemo.State(
        date: date,
        url: URL(fileURLWithPath: "/tmp").appendingPathComponent(uuid().uuidString)
          .appendingPathExtension("m4a"))
    }
    return Reduce<State, Action> { state, action in
      switch action {
      case .alert:
        return .none
      case .onDelete(let offsets):
        state.voiceMemos.exRemove(atOffsets: offsets)
        return .none
      case .openSettingsButtonTapped:
        return .run { _ in await audio.openSettings() }
      case .recordButtonTapped:
        switch state.audioRecorderPermission {
        case .undetermined:
          return .run { send in
            await send(.recordPermissionResponse(await audio.requestRecordPermission()))
          }
        case .denied:
          state.alert = "Permission is required to record voice memos."
          return .none
        case .allowed:
          state.recordingMemo = newRecordingMemo()
          return .none
        }
      case .recordingMemo(.delegate(.didFinish(.success(let memo)))):
        state.recordingMemo = nil
        state.voiceMemos.insert(
          ExVoiceMemo.State(date: memo.date, duration: memo.duration, url: memo.url), at: 0)
        return .none
      case .recordingMemo(.delegate(.didFinish(.failure))):
        state.alert = "Voice memo recording failed."
        state.recordingMemo = nil
        return .none
      case .recordingMemo:
        return .none
      case .recordPermissionResponse(let permission):
        state.audioRecorderPermission = permission ? .allowed : .denied
        if permission {
          state.recordingMemo = newRecordingMemo()
        } else {
          state.alert = "Permission is required to record voice memos."
        }
        return .none
      case .voiceMemos(let id, .delegate(let delegate)):
        switch delegate {
        case .playbackFailed:
          state.alert = "Voice memo playback failed."
        case .playbackStarted:
          for index in state.voiceMemos.indices where state.voiceMemos[index].id != id {
            state.voiceMemos[index].mode = .notPlaying
          }
        }
        return .none
      case .voiceMemos:
        return .none
      }
    }
    .ifLet(\.alert, action: Action.alert) { _, _ in .dismiss }
    .ifLet(
      \.recordingMemo, action: Action.recordingMemo,
      child: ExRecordingMemo.reducer(audio: audio, clock: clock)
    )
    .forEach(
      \.voiceMemos, action: Action.voiceMemos,
      child: ExVoiceMemo.reducer(audio: audio, clock: clock))
  }
}

/// Matchers for the actions of VoiceMemos, which carry `Result`s and are not `Equatable`.
extension ExVoiceMemos.Action {
  var isPermissionResponse: Bool {
    if case .recordPermissionResponse = self { true } else { false }
  }
  var recording: ExRecordingMemo.Action? {
    if case .recordingMemo(let action) = self { action } else { nil }
  }
  func memo(_ url: URL) -> ExVoiceMemo.Action? {
    if case .voiceMemos(url, let action) = self { action } else { nil }
  }
}
extension ExRecordingMemo.Action {
  var finalTime: TimeInterval? {
    if case .finalRecordingTime(let time) = self { time } else { nil }
  }
  var isTimerUpdated: Bool { if case .timerUpdated = self { true } else { false } }
  var didFinishRecording: Bool? {
    if case .audioRecorderDidFinish(let result) = self { exIsSuccess(result) } else { nil }
  }
  var delegateDidFinish: Bool? {
    if case .delegate(.didFinish(let result)) = self { exIsSuccess(result) } else { nil }
  }
}
extension ExVoiceMemo.Action {
  var delegate: ExVoiceMemo.Delegate? {
    if case .delegate(let delegate) = self { delegate } else { nil }
  }
  var timer: TimeInterval? { if case .timerUpdated(let time) = self { time } else { nil } }
  var player: Bool? {
    if case .audioPlayerClient(let result) = self { exIsSuccess(result) } else { nil }
  }
}

@MainActor
@Suite("Example apps port: VoiceMemos (VoiceMemosTests)")
struct ExampleAppPortVoiceMemosTests {
  let deadbeefID = UUID(uuidString: "DEADBEEF-DEAD-BEEF-DEAD-BEEFDEADBEEF")!
  let deadbeefURL = URL(fileURLWithPath: "/tmp/DEADBEEF-DEAD-BEEF-DEAD-BEEFDEADBEEF.m4a")
  let url = URL(fileURLWithPath: "pointfreeco/functions.m4a")
  let epoch = Date(timeIntervalSinceReferenceDate: 0)

  func recorder(_ didFinish: AsyncThrowingStream<Bool, any Error>) -> ExAudio {
    var audio = ExAudio()
    audio.currentTime = { 2.5 }
    audio.requestRecordPermission = { true }
    audio.startRecording = { _ in try await didFinish.first { _ in true }! }
    return audio
  }

  @Test("record a memo: permission, timer, stop, saved (recordHappyPath)")
  func recordHappyPath() async throws {
    let didFinish = AsyncThrowingStream.makeStream(of: Bool.self)
    var audio = recorder(didFinish.stream)
    audio.stopRecording = {
      didFinish.continuation.yield(true)
      didFinish.continuation.finish()
    }
    let clock = TestClock()
    let id = deadbeefID
    let store = TestStore(
      initialState: ExVoiceMemos.State(),
      ExVoiceMemos.reducer(audio: audio, clock: clock, date: epoch, uuid: { id }))
    store.timeout = patience
    try await store.send(.recordButtonTapped)
    await clock.advance()
    try await store.receive({ $0.isPermissionResponse }) {
      $0.audioRecorderPermission = .allowed
      $0.recordingMemo = ExRecordingMemo.State(date: epoch, url: deadbeefURL)
    }
    let recordingMemoTask = try await store.send(.recordingMemo(.onTask))
    await clock.advance(by: .seconds(1))
    try await store.receive({ $0.recording?.isTimerUpdated == true }) {
      $0.recordingMemo?.duration = 1
    }
    await clock.advance(by: .seconds(1))
    try await store.receive({ $0.recording?.isTimerUpdated == true }) {
      $0.recordingMemo?.duration = 2
    }
    await clock.advance(by: .milliseconds(500))
    try await store.send(.recordingMemo(.stopButtonTapped)) { $0.recordingMemo?.mode = .encoding }
    try await store.receive({ $0.recording?.finalTime == 2.5 }) {
      $0.recordingMemo?.duration = 2.5
    }
    try await store.receive({ $0.recording?.didFinishRecording == true })
    try await store.receive({ $0.recording?.delegateDidFinish == true }) {
      $0.recordingMemo = nil
      $0.voiceMemos = [ExVoiceMemo.State(date: epoch, duration: 2.5, url: deadbeefURL)]
    }
    recordingMemoTask.cancel()
  }

  @Test("permission denied shows an alert; open settings (permissionDenied)")
  func permissionDenied() async throws {
    let didOpenSettings = Locked(false)
    var audio = ExAudio()
    audio.requestRecordPermission = { false }
    audio.openSettings = { didOpenSettings.withLock { $0 = true } }
    let store = TestStore(
      initialState: ExVoiceMemos.State(), ExVoiceMemos.reducer(audio: audio, clock: TestClock()))
    store.timeout = patience
    try await store.send(.recordButtonTapped)
    try await store.receive({ $0.isPermissionResponse }) {
      $0.alert = "Permission is required to record voice memos."
      $0.audioRecorderPermission = .denied
    }
    try await store.send(.alert(.dismiss)) { $0.alert = nil }
    try await store.send(.openSettingsButtonTapped).finish()
    #expect(didOpenSettings.current)
  }

  @Test("a recording that fails shows an alert (recordFailure)")
  func recordFailure() async throws {
    struct SomeError: Error {}
    let didFinish = AsyncThrowingStream.makeStream(of: Bool.self)
    let id = deadbeefID
    let store = TestStore(
      initialState: ExVoiceMemos.State(),
      ExVoiceMemos.reducer(
        audio: recorder(didFinish.stream), clock: TestClock(), date: epoch, uuid: { id }))
    store.timeout = patience
    try await store.send(.recordButtonTapped)
    try await store.receive({ $0.isPermissionResponse }) {
      $0.audioRecorderPermission = .allowed
      $0.recordingMemo = ExRecordingMemo.State(date: epoch, url: deadbeefURL)
    }
    try await store.send(.recordingMemo(.onTask))
    didFinish.continuation.finish(throwing: SomeError())
    try await store.receive({ $0.recording?.didFinishRecording == false })
    try await store.receive({ $0.recording?.delegateDidFinish == false }) {
      $0.alert = "Voice memo recording failed."
      $0.recordingMemo = nil
    }
  }

  @Test("the same, non-exhaustively (recordFailureNonExhaustive)")
  func recordFailureNonExhaustive() async throws {
    struct SomeError: Error {}
    let didFinish = AsyncThrowingStream.makeStream(of: Bool.self)
    let id = deadbeefID
    let store = TestStore(
      initialState: ExVoiceMemos.State(),
      ExVoiceMemos.reducer(
        audio: recorder(didFinish.stream), clock: TestClock(), date: epoch, uuid: { id }))
    store.timeout = patience
    store.exhaustivity = .off
    try await store.send(.recordButtonTapped)
    try await store.send(.recordingMemo(.onTask))
    didFinish.continuation.finish(throwing: SomeError())
    try await store.receive({ $0.recording?.delegateDidFinish == false }) {
      $0.alert = "Voice memo recording failed."
      $0.recordingMemo = nil
    }
  }

  func playing(duration: TimeInterval, mode: ExVoiceMemo.Mode = .notPlaying) -> ExVoiceMemos.State {
    ExVoiceMemos.State(
      voiceMemos: [ExVoiceMemo.State(date: Date(), duration: duration, mode: mode, url: url)])
  }

  @Test("play a memo: progress each 500 ms, then done (playHappyPath)")
  func playHappyPath() async throws {
    let clock = TestClock()
    var audio = ExAudio()
    audio.play = { _ in
      try await clock.sleep(for: .milliseconds(1_250))
      return true
    }
    let url = url
    let store = TestStore(
      initialState: playing(duration: 1.25), ExVoiceMemos.reducer(audio: audio, clock: clock))
    store.timeout = patience
    try await store.send(.voiceMemos(id: url, .playButtonTapped)) {
      $0.voiceMemos[0].mode = .playing(progress: 0)
    }
    try await store.receive({ $0.memo(url)?.delegate == .playbackStarted })
    await clock.advance(by: .milliseconds(500))
    try await store.receive({ $0.memo(url)?.timer == 0.5 }) {
      $0.voiceMemos[0].mode = .playing(progress: 0.4)
    }
    await clock.advance(by: .milliseconds(500))
    try await store.receive({ $0.memo(url)?.timer == 1 }) {
      $0.voiceMemos[0].mode = .playing(progress: 0.8)
    }
    await clock.advance(by: .milliseconds(250))
    try await store.receive({ $0.memo(url)?.player == true }) {
      $0.voiceMemos[0].mode = .notPlaying
    }
  }

  @Test("playback that fails shows an alert (playFailure)")
  func playFailure() async throws {
    struct SomeError: Error {}
    var audio = ExAudio()
    audio.play = { _ in throw SomeError() }
    let url = url
    let store = TestStore(
      initialState: playing(duration: 30), ExVoiceMemos.reducer(audio: audio, clock: TestClock()))
    store.timeout = patience
    let task = try await store.send(.voiceMemos(id: url, .playButtonTapped)) {
      $0.voiceMemos[0].mode = .playing(progress: 0)
    }
    try await store.receive({ $0.memo(url)?.delegate == .playbackStarted })
    try await store.receive({ $0.memo(url)?.player == false }) {
      $0.voiceMemos[0].mode = .notPlaying
    }
    try await store.receive({ $0.memo(url)?.delegate == .playbackFailed }) {
      $0.alert = "Voice memo playback failed."
    }
    task.cancel()
  }

  @Test("tapping a playing memo stops it (stop)")
  func stop() async throws {
    let store = TestStore(
      initialState: playing(duration: 30, mode: .playing(progress: 0.3)),
      ExVoiceMemos.reducer(audio: ExAudio(), clock: TestClock()))
    try await store.send(.voiceMemos(id: url, .playButtonTapped)) {
      $0.voiceMemos[0].mode = .notPlaying
    }
  }

  @Test("delete the only memo (deleteOnly)")
  func deleteOnly() async throws {
    let store = TestStore(
      initialState: playing(duration: 30, mode: .playing(progress: 0.3)),
      ExVoiceMemos.reducer(audio: ExAudio(), clock: TestClock()))
    try await store.send(.onDelete([0])) { $0.voiceMemos = [] }
  }

  @Test("delete one memo of three (delete)")
  func delete() async throws {
    let date = Date()
    let memos = (1...3).map {
      ExVoiceMemo.State(
        date: date, duration: 30, mode: .playing(progress: 0.3), title: "Episode \($0)",
        url: URL(fileURLWithPath: "pointfreeco/\($0).m4a"))
    }
    let store = TestStore(
      initialState: ExVoiceMemos.State(voiceMemos: memos),
      ExVoiceMemos.reducer(audio: ExAudio(), clock: TestClock()))
    try await store.send(.onDelete([1])) { $0.voiceMemos = [memos[0], memos[2]] }
  }

  @Test("deleting a playing memo ends its playback (deleteWhilePlaying)")
  func deleteWhilePlaying() async throws {
    var audio = ExAudio()
    audio.play = { _ in
      await untilCancelled()
      throw CancellationError()
    }
    let url = url
    let store = TestStore(
      initialState: playing(duration: 10), ExVoiceMemos.reducer(audio: audio, clock: TestClock()))
    store.timeout = patience
    try await store.send(.voiceMemos(id: url, .playButtonTapped)) {
      $0.voiceMemos[0].mode = .playing(progress: 0)
    }
    try await store.receive({ $0.memo(url)?.delegate == .playbackStarted })
    try await store.send(.onDelete([0])) { $0.voiceMemos = [] }
    try await store.finish()
  }
}

// MARK: - TicTacToe (Examples/TicTacToe: LoginCore, TwoFactorCore, NewGameCore, AppCore)

struct ExAuthResponse: Equatable, Sendable {
  var token: String
  var twoFactorRequired: Bool
}
struct ExAuthError: Error, LocalizedError {
  var errorDescription: String? { "The two-factor code is invalid." }
}
struct ExAuthClient: Sendable {
  var login: @Sendable (String, String) async throws -> ExAuthResponse = { _, _ in
    throw ExUnimplemented()
  }
  var twoFactor: @Sendable (String, String) async throws -> ExAuthResponse = { _, _ in
    throw ExUnimplemented()
  }
}
enum ExAlertAction: Equatable, Sendable { case dismiss }

enum ExTwoFactor {
  struct State: Equatable {
    var alert: String?
    var code = ""
    var isFormValid = false
    var isTwoFactorRequestInFlight = false
    let token: String
  }
  enum Action: Sendable {
    case alert(ExAlertAction)
    case twoFactorResponse(Result<ExAuthResponse, any Error>)
    case codeChanged(String), submitButtonTapped
  }

  static func reducer(_ client: ExAuthClient) -> Reduce<State, Action> {
    Reduce<State, Action> { state, action in
      switch action {
      case .alert:
        return .none
      case .twoFactorResponse(.failure(let error)):
        state.alert = error.localizedDescription
        state.isTwoFactorRequestInFlight = false
        return .none
      case .twoFactorResponse(.success):
        state.isTwoFactorRequestInFlight = false
        return .none
      case .codeChanged(let code):
        state.code = code
        state.isFormValid = code.count >= 4
        return .none
      case .submitButtonTapped:
        state.isTwoFactorRequestInFlight = true
        return .run { [code = state.code, token = state.token] send in
          await send(.twoFactorResponse(await exResult { try await client.twoFactor(code, token) }))
        }
      }
    }
    .ifLet(\.alert, action: Action.alert) { _, _ in .dismiss }
  }
}

enum ExLogin {
  struct State: Equatable {
    var alert: String?
    var email = ""
    var isFormValid = false
    var isLoginRequestInFlight = false
    var password = ""
    var twoFactor: ExTwoFactor.State?
  }
  enum Action: Sendable {
    case alert(ExAlertAction)
    case loginResponse(Result<ExAuthResponse, any Error>)
    case twoFactor(ExTwoFactor.Action)
    case twoFactorDismissed  // TCA's `.twoFactor(.dismiss)`, which SwiftUI sends on a swipe.
    case emailChanged(String), passwordChanged(String), loginButtonTapped
  }

  static func reducer(_ client: ExAuthClient) -> Reduce<State, Action> {
    Reduce<State, Action> { state, action in
      switch action {
      case .alert, .twoFactor:
        return .none
      case .loginResponse(.success(let response)):
        state.isLoginRequestInFlight = false
        if response.twoFactorRequired { state.twoFactor = ExTwoFactor.State(token: response.token) }
        return .none
      case .loginResponse(.failure(let error)):
        state.alert = error.localizedDescription
        state.isLoginRequestInFlight = false
        return .none
      case .twoFactorDismissed:
        state.twoFactor = nil
        return .none
      case .emailChanged(let email):
        state.email = email
        state.isFormValid = !state.email.isEmpty && !state.password.isEmpty
        return .none
      case .passwordChanged(let password):
        state.password = password
        state.isFormValid = !state.email.isEmpty && !state.password.isEmpty
        return .none
      case .loginButtonTapped:
        state.isLoginRequestInFlight = true
        return .run { [email = state.email, password = state.password] send in
          await send(.loginResponse(await exResult { try await client.login(email, password) }))
        }
      }
    }
    .ifLet(\.alert, action: Action.alert) { _, _ in .dismiss }
    .ifLet(\.twoFactor, action: Action.twoFactor, child: ExTwoFactor.reducer(client))
  }
}

enum ExGame {
  enum Player: Equatable, Sendable { case x, o }
  struct State: Equatable {
    var board: [[Player?]] = Array(repeating: Array(repeating: nil, count: 3), count: 3)
    var currentPlayer = Player.x
    var oPlayerName: String
    var xPlayerName: String
  }
  enum Action: Equatable, Sendable { case cellTapped(row: Int, column: Int), quitButtonTapped }

  static let reducer: Reducer<State, Action> = { state, action in
    switch action {
    case .cellTapped(let row, let column):
      guard state.board[row][column] == nil else { return .none }
      state.board[row][column] = state.currentPlayer
      state.currentPlayer = state.currentPlayer == .x ? .o : .x
      return .none
    case .quitButtonTapped:
      return .run { send in await send.dismiss() }  // TCA: `.run { _ in await dismiss() }`.
    }
  }
}

enum ExNewGame {
  struct State: Equatable {
    var game: ExGame.State?
    var oPlayerName = ""
    var xPlayerName = ""
  }
  enum Action: Equatable, Sendable {
    case game(ExGame.Action), gameDismissed
    case oPlayerNameChanged(String), xPlayerNameChanged(String)
    case letsPlayButtonTapped, logoutButtonTapped
  }

  static let reducer = Reduce<State, Action> { state, action in
    switch action {
    case .game, .logoutButtonTapped:
      break
    case .gameDismissed:
      state.game = nil
    case .oPlayerNameChanged(let name):
      state.oPlayerName = name
    case .xPlayerNameChanged(let name):
      state.xPlayerName = name
    case .letsPlayButtonTapped:
      state.game = ExGame.State(oPlayerName: state.oPlayerName, xPlayerName: state.xPlayerName)
    }
    return .none
  }
  .ifLet(\.game, action: Action.game, child: ExGame.reducer)
}

/// TCA's `@Reducer enum TicTacToe`: the login flow, or a new game once logged in.
enum ExTicTacToe {
  enum State: Equatable {
    case login(ExLogin.State)
    case newGame(ExNewGame.State)
  }
  enum Action: Sendable {
    case login(ExLogin.Action)
    case newGame(ExNewGame.Action)
  }

  static func reducer(_ client: ExAuthClient) -> Reduce<State, Action> {
    Reduce<State, Action> { state, action in
      switch action {
      case .login(.twoFactor(.twoFactorResponse(.success))):
        state = .newGame(ExNewGame.State())
      case .login(.loginResponse(.success(let response))) where !response.twoFactorRequired:
        state = .newGame(ExNewGame.State())
      case .newGame(.logoutButtonTapped):
        state = .login(ExLogin.State())
      case .login, .newGame:
        break
      }
      return .none
    }
    .scope(State.login, action: Action.login, child: ExLogin.reducer(client))
    .scope(State.newGame, action: Action.newGame, child: ExNewGame.reducer)
  }
}

extension ExLogin.Action {
  var loginSucceeded: Bool? {
    if case .loginResponse(let result) = self { exIsSuccess(result) } else { nil }
  }
  var twoFactorSucceeded: Bool? {
    if case .twoFactor(.twoFactorResponse(let result)) = self { exIsSuccess(result) } else { nil }
  }
}

@MainActor
@Suite("Example apps port: TicTacToe (LoginCoreTests, TwoFactorCoreTests, AppCoreTests, ...)")
struct ExampleAppPortTicTacToeTests {
  let twoFactorClient = ExAuthClient(
    login: { _, _ in ExAuthResponse(token: "deadbeefdeadbeef", twoFactorRequired: true) },
    twoFactor: { _, _ in ExAuthResponse(token: "deadbeefdeadbeef", twoFactorRequired: false) })

  @Test("log in, then two-factor (LoginCoreTests.twoFactorSuccess)")
  func loginTwoFactorSuccess() async throws {
    let store = TestStore(initialState: ExLogin.State(), ExLogin.reducer(twoFactorClient))
    store.timeout = patience
    try await store.send(.emailChanged("2fa@pointfree.co")) { $0.email = "2fa@pointfree.co" }
    try await store.send(.passwordChanged("password")) {
      $0.password = "password"
      $0.isFormValid = true
    }
    let twoFactorPresentationTask = try await store.send(.loginButtonTapped) {
      $0.isLoginRequestInFlight = true
    }
    try await store.receive({ $0.loginSucceeded == true }) {
      $0.isLoginRequestInFlight = false
      $0.twoFactor = ExTwoFactor.State(token: "deadbeefdeadbeef")
    }
    try await store.send(.twoFactor(.codeChanged("1234"))) {
      $0.twoFactor?.code = "1234"
      $0.twoFactor?.isFormValid = true
    }
    try await store.send(.twoFactor(.submitButtonTapped)) {
      $0.twoFactor?.isTwoFactorRequestInFlight = true
    }
    try await store.receive({ $0.twoFactorSucceeded == true }) {
      $0.twoFactor?.isTwoFactorRequestInFlight = false
    }
    twoFactorPresentationTask.cancel()
  }

  @Test("dismissing two-factor cancels its request (LoginCoreTests.twoFactorDismissInFlight)")
  func loginTwoFactorDismissInFlight() async throws {
    var client = twoFactorClient
    client.twoFactor = { _, _ in
      await untilCancelled()
      throw CancellationError()
    }
    let store = TestStore(initialState: ExLogin.State(), ExLogin.reducer(client))
    store.timeout = patience
    try await store.send(.emailChanged("2fa@pointfree.co")) { $0.email = "2fa@pointfree.co" }
    try await store.send(.passwordChanged("password")) {
      $0.password = "password"
      $0.isFormValid = true
    }
    try await store.send(.loginButtonTapped) { $0.isLoginRequestInFlight = true }
    try await store.receive({ $0.loginSucceeded == true }) {
      $0.isLoginRequestInFlight = false
      $0.twoFactor = ExTwoFactor.State(token: "deadbeefdeadbeef")
    }
    try await store.send(.twoFactor(.codeChanged("1234"))) {
      $0.twoFactor?.code = "1234"
      $0.twoFactor?.isFormValid = true
    }
    try await store.send(.twoFactor(.submitButtonTapped)) {
      $0.twoFactor?.isTwoFactorRequestInFlight = true
    }
    try await store.send(.twoFactorDismissed) { $0.twoFactor = nil }
    try await store.finish()
  }

  @Test("a valid code, submitted (TwoFactorCoreTests.happyPath)")
  func twoFactorHappyPath() async throws {
    let store = TestStore(
      initialState: ExTwoFactor.State(token: "deadbeefdeadbeef"),
      ExTwoFactor.reducer(twoFactorClient))
    store.timeout = patience
    try await store.send(.codeChanged("1")) { $0.code = "1" }
    try await store.send(.codeChanged("12")) { $0.code = "12" }
    try await store.send(.codeChanged("123")) { $0.code = "123" }
    try await store.send(.codeChanged("1234")) {
      $0.code = "1234"
      $0.isFormValid = true
    }
    try await store.send(.submitButtonTapped) { $0.isTwoFactorRequestInFlight = true }
    try await store.receive(ExTwoFactor.Action.twoFactorResponse, where: exIsSuccess) {
      $0.isTwoFactorRequestInFlight = false
    }
  }

  @Test("an invalid code shows an alert (TwoFactorCoreTests.unhappyPath)")
  func twoFactorUnhappyPath() async throws {
    let store = TestStore(
      initialState: ExTwoFactor.State(token: "deadbeefdeadbeef"),
      ExTwoFactor.reducer(ExAuthClient(twoFactor: { _, _ in throw ExAuthError() })))
    store.timeout = patience
    try await store.send(.codeChanged("1234")) {
      $0.code = "1234"
      $0.isFormValid = true
    }
    try await store.send(.submitButtonTapped) { $0.isTwoFactorRequestInFlight = true }
    try await store.receive(ExTwoFactor.Action.twoFactorResponse, where: { !exIsSuccess($0) }) {
      $0.alert = ExAuthError().localizedDescription
      $0.isTwoFactorRequestInFlight = false
    }
    try await store.send(.alert(.dismiss)) { $0.alert = nil }
    try await store.finish()
  }

  @Test("names, play, quit, play again, swipe away (NewGameCoreTests.integration)")
  func newGameIntegration() async throws {
    let store = TestStore(initialState: ExNewGame.State(), ExNewGame.reducer)
    store.timeout = patience
    try await store.send(.oPlayerNameChanged("Blob Sr.")) { $0.oPlayerName = "Blob Sr." }
    try await store.send(.xPlayerNameChanged("Blob Jr.")) { $0.xPlayerName = "Blob Jr." }
    try await store.send(.letsPlayButtonTapped) {
      $0.game = ExGame.State(oPlayerName: "Blob Sr.", xPlayerName: "Blob Jr.")
    }
    try await store.send(.game(.cellTapped(row: 0, column: 0))) {
      $0.game?.board[0][0] = .x
      $0.game?.currentPlayer = .o
    }
    try await store.send(.game(.quitButtonTapped))
    try await store.receiveDismiss { $0.game = nil }
    try await store.send(.letsPlayButtonTapped) {
      $0.game = ExGame.State(oPlayerName: "Blob Sr.", xPlayerName: "Blob Jr.")
    }
    try await store.send(.gameDismissed) { $0.game = nil }
    try await store.send(.logoutButtonTapped)
  }

  @Test("log in, the app shows a new game, log out (AppCoreTests.integration)")
  func appIntegration() async throws {
    let client = ExAuthClient(login: { _, _ in
      ExAuthResponse(token: "deadbeef", twoFactorRequired: false)
    })
    let store = TestStore(
      initialState: ExTicTacToe.State.login(ExLogin.State()), ExTicTacToe.reducer(client))
    store.timeout = patience
    var login = ExLogin.State()
    try await store.send(.login(.emailChanged("blob@pointfree.co"))) {
      login.email = "blob@pointfree.co"
      $0 = .login(login)
    }
    try await store.send(.login(.passwordChanged("bl0bbl0b"))) {
      login.password = "bl0bbl0b"
      login.isFormValid = true
      $0 = .login(login)
    }
    try await store.send(.login(.loginButtonTapped)) {
      login.isLoginRequestInFlight = true
      $0 = .login(login)
    }
    try await store.receive({
      if case .login(let action) = $0 { action.loginSucceeded == true } else { false }
    }) {
      $0 = .newGame(ExNewGame.State())
    }
    try await store.send(.newGame(.oPlayerNameChanged("Blob Sr."))) {
      $0 = .newGame(ExNewGame.State(oPlayerName: "Blob Sr."))
    }
    try await store.send(.newGame(.logoutButtonTapped)) { $0 = .login(ExLogin.State()) }
  }

  @Test("two-factor success replaces the login with a new game (AppCoreTests.twoFactor)")
  func appTwoFactor() async throws {
    let client = ExAuthClient(
      login: { _, _ in ExAuthResponse(token: "deadbeef", twoFactorRequired: true) },
      twoFactor: { _, _ in ExAuthResponse(token: "deadbeef", twoFactorRequired: false) })
    let store = TestStore(
      initialState: ExTicTacToe.State.login(ExLogin.State()), ExTicTacToe.reducer(client))
    store.timeout = patience
    var login = ExLogin.State()
    try await store.send(.login(.emailChanged("blob@pointfree.co"))) {
      login.email = "blob@pointfree.co"
      $0 = .login(login)
    }
    try await store.send(.login(.passwordChanged("bl0bbl0b"))) {
      login.password = "bl0bbl0b"
      login.isFormValid = true
      $0 = .login(login)
    }
    try await store.send(.login(.loginButtonTapped)) {
      login.isLoginRequestInFlight = true
      $0 = .login(login)
    }
    try await store.receive({
      if case .login(let action) = $0 { action.loginSucceeded == true } else { false }
    }) {
      login.isLoginRequestInFlight = false
      login.twoFactor = ExTwoFactor.State(token: "deadbeef")
      $0 = .login(login)
    }
    try await store.send(.login(.twoFactor(.codeChanged("1234")))) {
      login.twoFactor?.code = "1234"
      login.twoFactor?.isFormValid = true
      $0 = .login(login)
    }
    try await store.send(.login(.twoFactor(.submitButtonTapped))) {
      login.twoFactor?.isTwoFactorRequestInFlight = true
      $0 = .login(login)
    }
    .finish()
    try await store.receive({
      if case .login(let action) = $0 { action.twoFactorSucceeded == true } else { false }
    }) {
      $0 = .newGame(ExNewGame.State())
    }
  }
}

// MARK: - SyncUps (Examples/SyncUps: RecordMeetingTests, SyncUpDetailTests, AppFeatureTests)

enum ExSyncUps {
  struct Attendee: Equatable, Identifiable, Sendable {
    let id: UUID
    var name = ""
  }
  struct Meeting: Equatable, Identifiable, Sendable {
    let id: UUID
    var date: Date
    var transcript: String
  }
  struct SyncUp: Equatable, Identifiable, Sendable {
    let id: UUID
    var attendees: [Attendee] = []
    var duration = Duration.seconds(60 * 5)
    var meetings: [Meeting] = []
    var title = ""
    var durationPerAttendee: Duration { duration / attendees.count }
  }
  static let mock = SyncUp(
    id: exUUID(100), attendees: (101...106).map { Attendee(id: exUUID($0)) },
    duration: .seconds(60), title: "Design")
  static let short = SyncUp(
    id: exUUID(200), attendees: (201...203).map { Attendee(id: exUUID($0)) }, duration: .seconds(6))
  static let now = Date(timeIntervalSince1970: 1_234_567_890)

  enum SpeechStatus: Equatable, Sendable { case notDetermined, denied, restricted, authorized }
  struct Speech: Sendable {
    var authorizationStatus: @Sendable () -> SpeechStatus = { .denied }
    var requestAuthorization: @Sendable () async -> SpeechStatus = { .denied }
    var startTask: @Sendable () async -> AsyncThrowingStream<String, any Error> = {
      AsyncThrowingStream { $0.finish(throwing: ExUnimplemented()) }
    }
    var openSettings: @Sendable () async -> Void = {}
  }
  static func speech(_ status: SpeechStatus, results: [String] = [], fails: Bool = false) -> Speech
  {
    Speech(
      authorizationStatus: { status },
      startTask: {
        AsyncThrowingStream { continuation in
          for result in results { continuation.yield(result) }
          continuation.finish(throwing: fails ? ExUnimplemented() : nil)
        }
      })
  }
}

enum ExRecordMeeting {
  enum Alert: Equatable, Sendable { case endMeeting(isDiscardable: Bool), speechRecognizerFailed }
  enum AlertAction: Equatable, Sendable { case confirmDiscard, confirmSave, dismiss }
  struct State: Equatable {
    var alert: Alert?
    var secondsElapsed = 0
    var speakerIndex = 0
    var syncUp: ExSyncUps.SyncUp  // TCA: `@Shared`; the parent hears of the meeting by delegate.
    var transcript = ""
    var durationRemaining: Duration { syncUp.duration - .seconds(secondsElapsed) }
  }
  enum Action: Equatable, Sendable {
    case alert(AlertAction)
    case delegate(Delegate)
    case endMeetingButtonTapped, nextButtonTapped, onTask, timerTick, speechFailure
    case speechResult(String)
  }
  enum Delegate: Equatable, Sendable { case save(ExSyncUps.SyncUp) }

  @MainActor static func reducer(
    clock: some Clock<Duration>, speech: ExSyncUps.Speech,
    uuid: @escaping @MainActor () -> UUID = exIncrementingUUID()
  ) -> Reduce<State, Action> {
    /// Inserts the meeting, tells the parent, then dismisses: TCA's `.run { _ in await dismiss() }`.
    let save: @MainActor (inout State) -> Effect<Action> = { state in
      state.syncUp.meetings.insert(
        ExSyncUps.Meeting(id: uuid(), date: ExSyncUps.now, transcript: state.transcript), at: 0)
      return .run { [syncUp = state.syncUp] send in
        await send(.delegate(.save(syncUp)))
        await send.dismiss()
      }
    }
    return Reduce<State, Action> { state, action in
      switch action {
      case .alert(.confirmDiscard):
        return .run { send in await send.dismiss() }
      case .alert(.confirmSave):
        return save(&state)
      case .alert, .delegate:
        return .none
      case .endMeetingButtonTapped:
        state.alert = .endMeeting(isDiscardable: true)
        return .none
      case .nextButtonTapped:
        guard state.speakerIndex < state.syncUp.attendees.count - 1 else {
          state.alert = .endMeeting(isDiscardable: false)
          return .none
        }
        state.speakerIndex += 1
        state.secondsElapsed =
          state.speakerIndex * Int(state.syncUp.durationPerAttendee.components.seconds)
        return .none
      case .onTask:
        return .run { send in
          let authorization =
            speech.authorizationStatus() == .notDetermined
            ? await speech.requestAuthorization() : speech.authorizationStatus()
          await withDiscardingTaskGroup { group in
            if authorization == .authorized {
              group.addTask {
                do {
                  for try await result in await speech.startTask() {
                    await send(.speechResult(result))
                  }
                } catch {
                  await send(.speechFailure)
                }
              }
            }
            group.addTask {
              while (try? await clock.sleep(for: .seconds(1))) != nil {
                await send(.timerTick)
              }
            }
          }
        }
      case .timerTick:
        guard state.alert == nil else { return .none }
        state.secondsElapsed += 1
        let secondsPerAttendee = Int(state.syncUp.durationPerAttendee.components.seconds)
        if state.secondsElapsed.isMultiple(of: secondsPerAttendee) {
          if state.secondsElapsed == state.syncUp.duration.components.seconds {
            return save(&state)
          }
          state.speakerIndex += 1
        }
        return .none
      case .speechFailure:
        if !state.transcript.isEmpty { state.transcript += " ❌" }
        state.alert = .speechRecognizerFailed
        return .none
      case .speechResult(let transcript):
        state.transcript = transcript
        return .none
      }
    }
    .ifLet(\.alert, action: Action.alert) { _, _ in .dismiss }
  }
}

/// What presents the recording in TCA's tests: the test store itself, which `dismiss()` marks
/// dismissed. Here a parent shows it, so that its dismissal is a state change.
enum ExRecordHost {
  struct State: Equatable {
    var record: ExRecordMeeting.State?
    var saved: [ExSyncUps.SyncUp] = []
  }
  enum Action: Equatable, Sendable { case record(ExRecordMeeting.Action) }
  @MainActor static func reducer(clock: some Clock<Duration>, speech: ExSyncUps.Speech) -> Reduce<
    State, Action
  > {
    Reduce<State, Action> { state, action in
      if case .record(.delegate(.save(let syncUp))) = action { state.saved.append(syncUp) }
      return .none
    }
    .ifLet(
      \.record, action: Action.record, child: ExRecordMeeting.reducer(clock: clock, speech: speech))
  }
  static func showing(_ syncUp: ExSyncUps.SyncUp) -> State {
    State(record: ExRecordMeeting.State(syncUp: syncUp))
  }
}

enum ExSyncUpForm {
  struct State: Equatable { var syncUp: ExSyncUps.SyncUp }
  enum Action: Equatable, Sendable { case syncUpChanged(ExSyncUps.SyncUp) }
  static let reducer: Reducer<State, Action> = { state, action in
    switch action {
    case .syncUpChanged(let syncUp): state.syncUp = syncUp
    }
    return .none
  }
}

enum ExSyncUpDetail {
  enum Alert: Equatable, Sendable {
    case deleteSyncUp, speechRecognitionDenied, speechRecognitionRestricted
  }
  enum AlertAction: Equatable, Sendable {
    case confirmDeletion, continueWithoutRecording, openSettings, dismiss
  }
  enum Destination: Equatable {
    case alert(Alert)
    case edit(ExSyncUpForm.State)
  }
  enum DestinationAction: Equatable, Sendable {
    case alert(AlertAction)
    case edit(ExSyncUpForm.Action)
  }
  struct State: Equatable {
    var destination: Destination?
    var syncUp: ExSyncUps.SyncUp
  }
  enum Action: Equatable, Sendable {
    case cancelEditButtonTapped, deleteButtonTapped, doneEditingButtonTapped, editButtonTapped
    case startMeetingButtonTapped
    case delegate(Delegate)
    case destination(DestinationAction)
  }
  /// TCA's `startMeeting`, and what `@Shared` told the app by itself: an edit, a deletion.
  enum Delegate: Equatable, Sendable {
    case startMeeting(ExSyncUps.SyncUp), syncUpUpdated(ExSyncUps.SyncUp), deleteSyncUp(UUID)
  }

  static func reducer(speech: ExSyncUps.Speech) -> Reduce<State, Action> {
    Reduce<State, Action> { state, action in
      switch action {
      case .cancelEditButtonTapped:
        state.destination = nil
        return .none
      case .delegate:
        return .none
      case .deleteButtonTapped:
        state.destination = .alert(.deleteSyncUp)
        return .none
      case .destination(.alert(.confirmDeletion)):
        return .run { [id = state.syncUp.id] send in
          await send(.delegate(.deleteSyncUp(id)))
          await send.dismiss()
        }
      case .destination(.alert(.continueWithoutRecording)):
        return .send(.delegate(.startMeeting(state.syncUp)))
      case .destination(.alert(.openSettings)):
        return .run { _ in await speech.openSettings() }
      case .destination:
        return .none
      case .doneEditingButtonTapped:
        guard case .edit(let form) = state.destination else { return .none }
        state.syncUp = form.syncUp
        state.destination = nil
        return .send(.delegate(.syncUpUpdated(form.syncUp)))
      case .editButtonTapped:
        state.destination = .edit(ExSyncUpForm.State(syncUp: state.syncUp))
        return .none
      case .startMeetingButtonTapped:
        switch speech.authorizationStatus() {
        case .notDetermined, .authorized:
          return .send(.delegate(.startMeeting(state.syncUp)))
        case .denied:
          state.destination = .alert(.speechRecognitionDenied)
          return .none
        case .restricted:
          state.destination = .alert(.speechRecognitionRestricted)
          return .none
        }
      }
    }
    .ifLet(
      \.destination, action: Action.destination,
      child: Reduce<Destination, DestinationAction> { _, _ in .none }
        .scope(Destination.alert, action: DestinationAction.alert)
        .scope(Destination.edit, action: DestinationAction.edit, child: ExSyncUpForm.reducer))
  }
}

enum ExSyncUpsApp {
  enum Path {
    enum State: Equatable {
      case detail(ExSyncUpDetail.State)
      case record(ExRecordMeeting.State)
    }
    enum Action: Equatable, Sendable {
      case detail(ExSyncUpDetail.Action)
      case record(ExRecordMeeting.Action)
    }
  }
  struct State: Equatable {
    var path = StackState<Path.State>()
    var syncUps: [ExSyncUps.SyncUp] = []
  }
  enum Action: Equatable, Sendable {
    case path(id: Int, Path.Action)
    case syncUpTapped(ExSyncUps.SyncUp)  // TCA's `NavigationLink(state:)`, a `path.push`.
  }

  @MainActor static func reducer(
    clock: some Clock<Duration> = TestClock(), speech: ExSyncUps.Speech = ExSyncUps.Speech()
  ) -> Reduce<State, Action> {
    Reduce<State, Action> { state, action in
      switch action {
      case .syncUpTapped(let syncUp):
        state.path.append(.detail(ExSyncUpDetail.State(syncUp: syncUp)))
      case .path(_, .detail(.delegate(.startMeeting(let syncUp)))):
        state.path.append(.record(ExRecordMeeting.State(syncUp: syncUp)))
      case .path(_, .detail(.delegate(.syncUpUpdated(let syncUp)))),
        .path(_, .record(.delegate(.save(let syncUp)))):
        // What `@Shared` did: every copy of the sync-up changes.
        for index in state.syncUps.indices where state.syncUps[index].id == syncUp.id {
          state.syncUps[index] = syncUp
        }
        for id in state.path.ids {
          if state.path[id: id][case: Path.State.detail]?.syncUp.id == syncUp.id {
            state.path[id: id][case: Path.State.detail]?.syncUp = syncUp
          }
        }
      case .path(_, .detail(.delegate(.deleteSyncUp(let id)))):
        state.syncUps.removeAll { $0.id == id }
      case .path:
        break
      }
      return .none
    }
    .forEach(
      \.path, action: Action.path,
      child: Reduce<Path.State, Path.Action> { _, _ in .none }
        .scope(
          Path.State.detail, action: Path.Action.detail,
          child: ExSyncUpDetail.reducer(speech: speech)
        )
        .scope(
          Path.State.record, action: Path.Action.record,
          child: ExRecordMeeting.reducer(clock: clock, speech: speech)))
  }
}

@MainActor
@Suite("Example apps port: SyncUps, recording a meeting (RecordMeetingTests)")
struct ExampleAppPortRecordMeetingTests {
  typealias Meeting = ExSyncUps.Meeting

  @Test("the timer moves through the speakers, then saves and dismisses (timer)")
  func timer() async throws {
    let clock = TestClock()
    let store = TestStore(
      initialState: ExRecordHost.showing(ExSyncUps.short),
      ExRecordHost.reducer(clock: clock, speech: ExSyncUps.speech(.denied)))
    store.timeout = patience
    try await store.send(.record(.onTask))
    for (second, speaker) in [(1, 0), (2, 1), (3, 1), (4, 2), (5, 2)] {
      await clock.advance(by: .seconds(1))
      try await store.receive(.record(.timerTick)) {
        $0.record?.speakerIndex = speaker
        $0.record?.secondsElapsed = second
        #expect($0.record?.durationRemaining == .seconds(6 - second))
      }
    }
    var syncUp = ExSyncUps.short
    syncUp.meetings = [Meeting(id: exUUID(0), date: ExSyncUps.now, transcript: "")]
    await clock.advance(by: .seconds(1))
    try await store.receive(.record(.timerTick)) {
      $0.record?.secondsElapsed = 6
      $0.record?.syncUp = syncUp
      #expect($0.record?.durationRemaining == .seconds(0))
    }
    try await store.receive(.record(.delegate(.save(syncUp)))) { $0.saved = [syncUp] }
    try await store.receiveDismiss { $0.record = nil }
  }

  @Test("the transcript is saved with the meeting (recordTranscript)")
  func recordTranscript() async throws {
    let clock = TestClock()
    let store = TestStore(
      initialState: ExRecordHost.showing(ExSyncUps.short),
      ExRecordHost.reducer(
        clock: clock,
        speech: ExSyncUps.speech(.authorized, results: ["I completed the project"])))
    store.timeout = patience
    try await store.send(.record(.onTask))
    try await store.receive(.record(.speechResult("I completed the project"))) {
      $0.record?.transcript = "I completed the project"
    }
    store.exhaustivity = .off
    await clock.advance(by: .seconds(6))
    for _ in 1...6 { try await store.receive(.record(.timerTick)) }
    try await store.finish()
    #expect(store.state.record == nil)
    #expect(
      store.state.saved.first?.meetings == [
        Meeting(id: exUUID(0), date: ExSyncUps.now, transcript: "I completed the project")
      ])
  }

  @Test("end the meeting early and save it (endMeetingSave)")
  func endMeetingSave() async throws {
    let clock = TestClock()
    let store = TestStore(
      initialState: ExRecordHost.showing(ExSyncUps.mock),
      ExRecordHost.reducer(clock: clock, speech: ExSyncUps.speech(.denied)))
    store.timeout = patience
    try await store.send(.record(.onTask))
    try await store.send(.record(.endMeetingButtonTapped)) {
      $0.record?.alert = .endMeeting(isDiscardable: true)
    }
    await clock.advance(by: .seconds(3))
    for _ in 1...3 { try await store.receive(.record(.timerTick)) }
    var syncUp = ExSyncUps.mock
    syncUp.meetings = [Meeting(id: exUUID(0), date: ExSyncUps.now, transcript: "")]
    try await store.send(.record(.alert(.confirmSave))) {
      $0.record?.alert = nil
      $0.record?.syncUp = syncUp
    }
    try await store.receive(.record(.delegate(.save(syncUp)))) { $0.saved = [syncUp] }
    try await store.receiveDismiss { $0.record = nil }
  }

  @Test("end the meeting early and discard it (endMeetingDiscard)")
  func endMeetingDiscard() async throws {
    let store = TestStore(
      initialState: ExRecordHost.showing(ExSyncUps.mock),
      ExRecordHost.reducer(clock: TestClock(), speech: ExSyncUps.speech(.denied)))
    store.timeout = patience
    try await store.send(.record(.onTask))
    try await store.send(.record(.endMeetingButtonTapped)) {
      $0.record?.alert = .endMeeting(isDiscardable: true)
    }
    try await store.send(.record(.alert(.confirmDiscard))) { $0.record?.alert = nil }
    try await store.receiveDismiss { $0.record = nil }
  }

  @Test("TCA's own form: the recording as the root of its test store (endMeetingDiscard)")
  func endMeetingDiscardAtTheRoot() async throws {
    // TCA: `dismiss()` in the root feature marks the test store dismissed and ends its effects,
    // the timer included, so the test ends cleanly. MiniRedux documents that a root store's
    // `.dismiss` is reported and removes nothing (Guarantees, "A child that dismisses itself").
    await withKnownIssue("MiniRedux reports a root's dismissal and removes nothing") {
      let store = TestStore(
        initialState: ExRecordMeeting.State(syncUp: ExSyncUps.mock),
        ExRecordMeeting.reducer(clock: TestClock(), speech: ExSyncUps.speech(.denied)))
      store.timeout = .milliseconds(200)
      try await store.send(.onTask)
      try await store.send(.endMeetingButtonTapped) {
        $0.alert = .endMeeting(isDiscardable: true)
      }
      try await store.send(.alert(.confirmDiscard)) { $0.alert = nil }
      try await store.finish(timeout: .milliseconds(200))
    }
  }

  @Test("next moves through the speakers; past the last, it asks to end (nextSpeaker)")
  func nextSpeaker() async throws {
    let store = TestStore(
      initialState: ExRecordHost.showing(ExSyncUps.short),
      ExRecordHost.reducer(clock: TestClock(), speech: ExSyncUps.speech(.denied)))
    store.timeout = patience
    try await store.send(.record(.onTask))
    try await store.send(.record(.nextButtonTapped)) {
      $0.record?.speakerIndex = 1
      $0.record?.secondsElapsed = 2
    }
    try await store.send(.record(.nextButtonTapped)) {
      $0.record?.speakerIndex = 2
      $0.record?.secondsElapsed = 4
    }
    try await store.send(.record(.nextButtonTapped)) {
      $0.record?.alert = .endMeeting(isDiscardable: false)
    }
    var syncUp = ExSyncUps.short
    syncUp.meetings = [Meeting(id: exUUID(0), date: ExSyncUps.now, transcript: "")]
    try await store.send(.record(.alert(.confirmSave))) {
      $0.record?.alert = nil
      $0.record?.syncUp = syncUp
    }
    try await store.receive(.record(.delegate(.save(syncUp)))) { $0.saved = [syncUp] }
    try await store.receiveDismiss { $0.record = nil }
  }

  @Test("a failed recognition asks; the meeting goes on (continueAfterSpeechRecognitionFailure)")
  func continueAfterSpeechRecognitionFailure() async throws {
    let clock = TestClock()
    let store = TestStore(
      initialState: ExRecordHost.showing(ExSyncUps.short),
      ExRecordHost.reducer(
        clock: clock,
        speech: ExSyncUps.speech(.authorized, results: ["I completed the project"], fails: true)))
    store.timeout = patience
    try await store.send(.record(.onTask))
    try await store.receive(.record(.speechResult("I completed the project"))) {
      $0.record?.transcript = "I completed the project"
    }
    try await store.receive(.record(.speechFailure)) {
      $0.record?.alert = .speechRecognizerFailed
      $0.record?.transcript = "I completed the project ❌"
    }
    try await store.send(.record(.alert(.dismiss))) { $0.record?.alert = nil }
    await clock.advance(by: .seconds(6))
    store.exhaustivity = .off
    for _ in 1...6 { try await store.receive(.record(.timerTick)) }
    try await store.finish()
  }

  @Test("a failed recognition, then discard (discardAfterSpeechRecognitionFailure)")
  func discardAfterSpeechRecognitionFailure() async throws {
    let store = TestStore(
      initialState: ExRecordHost.showing(ExSyncUps.mock),
      ExRecordHost.reducer(clock: TestClock(), speech: ExSyncUps.speech(.authorized, fails: true)))
    store.timeout = patience
    try await store.send(.record(.onTask))
    try await store.receive(.record(.speechFailure)) {
      $0.record?.alert = .speechRecognizerFailed
    }
    try await store.send(.record(.alert(.confirmDiscard))) { $0.record?.alert = nil }
    try await store.receiveDismiss { $0.record = nil }
  }
}

@MainActor
@Suite("Example apps port: SyncUps, the detail screen (SyncUpDetailTests)")
struct ExampleAppPortSyncUpDetailTests {
  typealias Detail = ExSyncUpDetail

  @Test("restricted speech recognition shows an alert (speechRestricted)")
  func speechRestricted() async throws {
    let store = TestStore(
      initialState: Detail.State(syncUp: ExSyncUps.mock),
      Detail.reducer(speech: ExSyncUps.speech(.restricted)))
    try await store.send(.startMeetingButtonTapped) {
      $0.destination = .alert(.speechRecognitionRestricted)
    }
  }

  @Test("denied speech recognition shows an alert (speechDenied)")
  func speechDenied() async throws {
    let store = TestStore(
      initialState: Detail.State(syncUp: ExSyncUps.mock),
      Detail.reducer(speech: ExSyncUps.speech(.denied)))
    try await store.send(.startMeetingButtonTapped) {
      $0.destination = .alert(.speechRecognitionDenied)
    }
  }

  @Test("the alert's button opens the settings (openSettings)")
  func openSettings() async throws {
    let settingsOpened = Locked(false)
    var speech = ExSyncUps.speech(.denied)
    speech.openSettings = { settingsOpened.withLock { $0 = true } }
    let store = TestStore(
      initialState: Detail.State(
        destination: .alert(.speechRecognitionDenied), syncUp: ExSyncUps.mock),
      Detail.reducer(speech: speech))
    try await store.send(.destination(.alert(.openSettings))) { $0.destination = nil }
    #expect(settingsOpened.current)
  }

  @Test("continue without recording starts the meeting (continueWithoutRecording)")
  func continueWithoutRecording() async throws {
    let store = TestStore(
      initialState: Detail.State(
        destination: .alert(.speechRecognitionDenied), syncUp: ExSyncUps.mock),
      Detail.reducer(speech: ExSyncUps.speech(.denied)))
    try await store.send(.destination(.alert(.continueWithoutRecording))) { $0.destination = nil }
    try await store.receive(.delegate(.startMeeting(ExSyncUps.mock)))
  }

  @Test("authorized speech recognition starts the meeting (speechAuthorized)")
  func speechAuthorized() async throws {
    let store = TestStore(
      initialState: Detail.State(syncUp: ExSyncUps.mock),
      Detail.reducer(speech: ExSyncUps.speech(.authorized)))
    try await store.send(.startMeetingButtonTapped)
    try await store.receive(.delegate(.startMeeting(ExSyncUps.mock)))
  }

  @Test("edit the sync-up in a sheet, then done (edit)")
  func edit() async throws {
    var syncUp = ExSyncUps.mock
    let store = TestStore(
      initialState: Detail.State(syncUp: syncUp), Detail.reducer(speech: ExSyncUps.Speech()))
    try await store.send(.editButtonTapped) {
      $0.destination = .edit(ExSyncUpForm.State(syncUp: syncUp))
    }
    syncUp.title = "Blob's Meeting"
    try await store.send(.destination(.edit(.syncUpChanged(syncUp)))) {
      $0.destination[case: Detail.Destination.edit]?.syncUp.title = "Blob's Meeting"
    }
    try await store.send(.doneEditingButtonTapped) {
      $0.destination = nil
      $0.syncUp.title = "Blob's Meeting"
    }
    // What `@Shared` does by itself: tell the app.
    try await store.receive(.delegate(.syncUpUpdated(syncUp)))
  }

  @Test("TCA's own form: delete dismisses the root detail (delete)")
  func delete() async throws {
    // TCA: `#expect(store.isDismissed)`. MiniRedux documents that a root store's dismissal is
    // reported and removes nothing; `AppFeatureTests.delete` below tests it in its stack.
    await withKnownIssue("MiniRedux reports a root's dismissal and removes nothing") {
      let store = TestStore(
        initialState: Detail.State(syncUp: ExSyncUps.mock),
        Detail.reducer(speech: ExSyncUps.Speech()))
      store.timeout = .milliseconds(200)
      try await store.send(.deleteButtonTapped) { $0.destination = .alert(.deleteSyncUp) }
      try await store.send(.destination(.alert(.confirmDeletion))) { $0.destination = nil }
      try await store.receive(.delegate(.deleteSyncUp(ExSyncUps.mock.id)))
      try await store.receiveDismiss()
      try await store.finish()
    }
  }
}

@MainActor
@Suite("Example apps port: SyncUps, the app's stack (AppFeatureTests)")
struct ExampleAppPortSyncUpsAppTests {
  typealias Path = ExSyncUpsApp.Path

  @Test("push a detail, edit it, done: the list follows (detailEdit)")
  func detailEdit() async throws {
    let syncUp = ExSyncUps.mock
    let store = TestStore(
      initialState: ExSyncUpsApp.State(syncUps: [syncUp]), ExSyncUpsApp.reducer())
    store.timeout = patience
    try await store.send(.syncUpTapped(syncUp)) {
      $0.path.append(.detail(ExSyncUpDetail.State(syncUp: syncUp)))
    }
    try await store.send(.path(id: 0, .detail(.editButtonTapped))) {
      $0.path[id: 0][case: Path.State.detail]?.destination = .edit(
        ExSyncUpForm.State(syncUp: syncUp))
    }
    var newSyncUp = syncUp
    newSyncUp.title = "Blob"
    try await store.send(.path(id: 0, .detail(.destination(.edit(.syncUpChanged(newSyncUp)))))) {
      $0.path[id: 0][case: Path.State.detail]?.destination[case: ExSyncUpDetail.Destination.edit]?
        .syncUp.title = "Blob"
    }
    try await store.send(.path(id: 0, .detail(.doneEditingButtonTapped))) {
      $0.path[id: 0][case: Path.State.detail]?.destination = nil
      $0.path[id: 0][case: Path.State.detail]?.syncUp.title = "Blob"
    }
    .finish()
    try await store.receive(.path(id: 0, .detail(.delegate(.syncUpUpdated(newSyncUp))))) {
      $0.syncUps = [newSyncUp]
    }
  }

  @Test("delete from the detail: the list loses it, the detail pops (delete)")
  func delete() async throws {
    let syncUp = ExSyncUps.mock
    let store = TestStore(
      initialState: ExSyncUpsApp.State(syncUps: [syncUp]), ExSyncUpsApp.reducer())
    store.timeout = patience
    try await store.send(.syncUpTapped(syncUp)) {
      $0.path.append(.detail(ExSyncUpDetail.State(syncUp: syncUp)))
    }
    try await store.send(.path(id: 0, .detail(.deleteButtonTapped))) {
      $0.path[id: 0][case: Path.State.detail]?.destination = .alert(.deleteSyncUp)
    }
    try await store.send(.path(id: 0, .detail(.destination(.alert(.confirmDeletion))))) {
      $0.path[id: 0][case: Path.State.detail]?.destination = nil
    }
    try await store.receive(.path(id: 0, .detail(.delegate(.deleteSyncUp(syncUp.id))))) {
      $0.syncUps = []
    }
    try await store.receiveDismiss { $0.path = StackState() }
  }

  @Test("record a meeting over the detail: saved, then popped (recording)")
  func recording() async throws {
    let syncUp = ExSyncUps.short
    let store = TestStore(
      initialState: ExSyncUpsApp.State(path: [
        .detail(ExSyncUpDetail.State(syncUp: syncUp)),
        .record(ExRecordMeeting.State(syncUp: syncUp)),
      ]),
      ExSyncUpsApp.reducer(
        clock: ImmediateTestClock(),
        speech: ExSyncUps.speech(.authorized, results: ["I completed the project"])))
    store.timeout = patience
    store.exhaustivity = .off
    try await store.send(.path(id: 1, .record(.onTask)))
    try await store.receiveDismiss { #expect($0.path.count == 1) }
    try await store.finish()
    #expect(
      store.state.path[id: 0][case: Path.State.detail]?.syncUp.meetings == [
        ExSyncUps.Meeting(id: exUUID(0), date: ExSyncUps.now, transcript: "I completed the project")
      ])
  }
}

// MARK: - Navigation stack case study (04-NavigationStack; its test was 03-NavigationStackTests)

enum ExScreenA {
  struct State: Equatable {
    var count = 0
    var fact: String?
    var isLoading = false
  }
  enum Action: Sendable {
    case decrementButtonTapped, dismissButtonTapped, incrementButtonTapped, factButtonTapped
    case factResponse(Result<String, any Error>)
  }
  static func reducer(fact: @escaping @Sendable (Int) async throws -> String) -> Reducer<
    State, Action
  > {
    { state, action in
      switch action {
      case .decrementButtonTapped:
        state.count -= 1
        return .none
      case .dismissButtonTapped:
        return .run { send in await send.dismiss() }  // TCA: `.run { _ in await dismiss() }`.
      case .incrementButtonTapped:
        state.count += 1
        return .none
      case .factButtonTapped:
        state.isLoading = true
        return .run { [count = state.count] send in
          await send(.factResponse(await exResult { try await fact(count) }))
        }
      case .factResponse(.success(let fact)):
        state.isLoading = false
        state.fact = fact
        return .none
      case .factResponse(.failure):
        state.isLoading = false
        state.fact = nil
        return .none
      }
    }
  }
}

enum ExScreenB {
  struct State: Equatable {}
  enum Action: Equatable, Sendable {
    case screenAButtonTapped, screenBButtonTapped, screenCButtonTapped
  }
}

enum ExScreenC {
  struct State: Equatable {
    var count = 0
    var isTimerRunning = false
  }
  enum Action: Equatable, Sendable { case startButtonTapped, stopButtonTapped, timerTick }
  enum CancelID { case timer }
  static func reducer(clock: some Clock<Duration>) -> Reducer<State, Action> {
    { state, action in
      switch action {
      case .startButtonTapped:
        state.isTimerRunning = true
        return .run { send in
          while true {
            try await clock.sleep(for: .seconds(1))
            await send(.timerTick)
          }
        }
        .cancellable(id: CancelID.timer)
      case .stopButtonTapped:
        state.isTimerRunning = false
        return .cancel(id: CancelID.timer)
      case .timerTick:
        state.count += 1
        return .none
      }
    }
  }
}

enum ExNavigationDemo {
  enum Path {
    enum State: Equatable {
      case screenA(ExScreenA.State)
      case screenB(ExScreenB.State)
      case screenC(ExScreenC.State)
    }
    enum Action: Sendable {
      case screenA(ExScreenA.Action)
      case screenB(ExScreenB.Action)
      case screenC(ExScreenC.Action)
    }
  }
  struct State: Equatable { var path = StackState<Path.State>() }
  enum Action: Sendable {
    case goBackToScreen(id: Int)
    case path(id: Int, Path.Action)
    case popFrom(id: Int)  // TCA's `path(.popFrom(id:))`, which `NavigationStack` sends.
    case popToRoot
    case push(Path.State)  // TCA's `path(.push(id:state:))`, which `NavigationLink` sends.
  }

  static func reducer(
    clock: some Clock<Duration>, fact: @escaping @Sendable (Int) async throws -> String
  ) -> Reduce<State, Action> {
    Reduce<State, Action> { state, action in
      switch action {
      case .goBackToScreen(let id):
        state.path.pop(to: id)
      case .path(_, .screenB(.screenAButtonTapped)):
        state.path.append(.screenA(ExScreenA.State()))
      case .path(_, .screenB(.screenBButtonTapped)):
        state.path.append(.screenB(ExScreenB.State()))
      case .path(_, .screenB(.screenCButtonTapped)):
        state.path.append(.screenC(ExScreenC.State()))
      case .path:
        break
      case .popFrom(let id):
        state.path.pop(from: id)
      case .popToRoot:
        state.path.removeAll()
      case .push(let screen):
        state.path.append(screen)
      }
      return .none
    }
    .forEach(
      \.path, action: Action.path,
      child: Reduce<Path.State, Path.Action> { _, _ in .none }
        .scope(
          Path.State.screenA, action: Path.Action.screenA, child: ExScreenA.reducer(fact: fact)
        )
        .scope(
          Path.State.screenB, action: Path.Action.screenB,
          child: { (_: inout ExScreenB.State, _: ExScreenB.Action) in .none }
        )
        .scope(
          Path.State.screenC, action: Path.Action.screenC, child: ExScreenC.reducer(clock: clock)))
  }
}

extension ExNavigationDemo.Action {
  func factResponse(_ id: Int) -> String? {
    if case .path(id, .screenA(.factResponse(.success(let fact)))) = self { fact } else { nil }
  }
  func timerTick(_ id: Int) -> Bool {
    if case .path(id, .screenC(.timerTick)) = self { true } else { false }
  }
}

@MainActor
@Suite("Example apps port: the navigation stack case study (NavigationStackTests)")
struct ExampleAppPortNavigationStackTests {
  typealias Path = ExNavigationDemo.Path

  @Test("push A, load a fact; push C, its timer ticks; pop C ends it (testBasics)")
  func basics() async throws {
    let clock = TestClock()
    let store = TestStore(
      initialState: ExNavigationDemo.State(),
      ExNavigationDemo.reducer(clock: clock) { "\($0) is a good number." })
    store.timeout = patience
    try await store.send(.push(.screenA(ExScreenA.State()))) {
      $0.path.append(.screenA(ExScreenA.State()))
    }
    try await store.send(.path(id: 0, .screenA(.incrementButtonTapped))) {
      $0.path[id: 0][case: Path.State.screenA]?.count = 1
    }
    try await store.send(.path(id: 0, .screenA(.factButtonTapped))) {
      $0.path[id: 0][case: Path.State.screenA]?.isLoading = true
    }
    try await store.receive({ $0.factResponse(0) == "1 is a good number." }) {
      $0.path[id: 0][case: Path.State.screenA]?.isLoading = false
      $0.path[id: 0][case: Path.State.screenA]?.fact = "1 is a good number."
    }
    try await store.send(.push(.screenC(ExScreenC.State()))) {
      $0.path.append(.screenC(ExScreenC.State()))
    }
    try await store.send(.path(id: 1, .screenC(.startButtonTapped))) {
      $0.path[id: 1][case: Path.State.screenC]?.isTimerRunning = true
    }
    await clock.advance(by: .seconds(2))
    try await store.receive({ $0.timerTick(1) }) {
      $0.path[id: 1][case: Path.State.screenC]?.count = 1
    }
    try await store.receive({ $0.timerTick(1) }) {
      $0.path[id: 1][case: Path.State.screenC]?.count = 2
    }
    try await store.send(.popFrom(id: 1)) { $0.path.removeLast() }
    await clock.advance(by: .seconds(2))
    try await store.finish()
  }

  @Test("screen B pushes screen A through the parent (testProgrammaticNavigation)")
  func programmaticNavigation() async throws {
    let store = TestStore(
      initialState: ExNavigationDemo.State(),
      ExNavigationDemo.reducer(clock: TestClock()) { _ in throw ExUnimplemented() })
    try await store.send(.push(.screenB(ExScreenB.State()))) {
      $0.path = [.screenB(ExScreenB.State())]
    }
    try await store.send(.path(id: 0, .screenB(.screenAButtonTapped))) {
      $0.path.append(.screenA(ExScreenA.State()))
    }
    #expect(store.state.path.ids == [0, 1])
  }

  @Test("go back to the first screen: the screens above end their effects (goBackToScreen)")
  func goBackToScreen() async throws {
    let clock = TestClock()
    let store = TestStore(
      initialState: ExNavigationDemo.State(),
      ExNavigationDemo.reducer(clock: clock) {
        try await clock.sleep(for: .seconds(5))
        return "\($0) is a good number."
      })
    store.timeout = patience
    try await store.send(.push(.screenB(ExScreenB.State()))) {
      $0.path = [.screenB(ExScreenB.State())]
    }
    try await store.send(.path(id: 0, .screenB(.screenAButtonTapped))) {
      $0.path.append(.screenA(ExScreenA.State()))
    }
    try await store.send(.path(id: 1, .screenA(.factButtonTapped))) {
      $0.path[id: 1][case: Path.State.screenA]?.isLoading = true
    }
    try await store.send(.path(id: 0, .screenB(.screenCButtonTapped))) {
      $0.path.append(.screenC(ExScreenC.State()))
    }
    try await store.send(.path(id: 2, .screenC(.startButtonTapped))) {
      $0.path[id: 2][case: Path.State.screenC]?.isTimerRunning = true
    }
    await clock.advance(by: .seconds(1))
    try await store.receive({ $0.timerTick(2) }) {
      $0.path[id: 2][case: Path.State.screenC]?.count = 1
    }
    try await store.send(.goBackToScreen(id: 0)) { $0.path.pop(to: 0) }
    await clock.advance(by: .seconds(10))
    try await store.finish()
  }

  @Test("screen A dismisses itself: popped with the screen above it, whose timer ends")
  func screenADismisses() async throws {
    let clock = TestClock()
    let store = TestStore(
      initialState: ExNavigationDemo.State(),
      ExNavigationDemo.reducer(clock: clock) { _ in throw ExUnimplemented() })
    store.timeout = patience
    try await store.send(.push(.screenA(ExScreenA.State()))) {
      $0.path.append(.screenA(ExScreenA.State()))
    }
    try await store.send(.push(.screenC(ExScreenC.State()))) {
      $0.path.append(.screenC(ExScreenC.State()))
    }
    try await store.send(.path(id: 1, .screenC(.startButtonTapped))) {
      $0.path[id: 1][case: Path.State.screenC]?.isTimerRunning = true
    }
    try await store.send(.path(id: 0, .screenA(.dismissButtonTapped)))
    try await store.receiveDismiss { $0.path = [] }
    await clock.advance(by: .seconds(2))
    try await store.finish()
  }

  @Test("pop to root ends every screen's effects (popToRoot)")
  func popToRoot() async throws {
    let clock = TestClock()
    let store = TestStore(
      initialState: ExNavigationDemo.State(),
      ExNavigationDemo.reducer(clock: clock) { _ in throw ExUnimplemented() })
    store.timeout = patience
    for _ in 1...3 {
      try await store.send(.push(.screenC(ExScreenC.State()))) {
        $0.path.append(.screenC(ExScreenC.State()))
      }
    }
    for id in 0...2 {
      try await store.send(.path(id: id, .screenC(.startButtonTapped))) {
        $0.path[id: id][case: Path.State.screenC]?.isTimerRunning = true
      }
    }
    try await store.send(.path(id: 1, .screenC(.stopButtonTapped))) {
      $0.path[id: 1][case: Path.State.screenC]?.isTimerRunning = false
    }
    await clock.advance(by: .seconds(1))
    store.exhaustivity = .off
    try await store.receive({ $0.timerTick(0) })
    try await store.receive({ $0.timerTick(2) })
    store.exhaustivity = .on
    #expect(store.state.path[id: 1][case: Path.State.screenC]?.count == 0)
    try await store.send(.popToRoot) { $0.path = [] }
    await clock.advance(by: .seconds(1))
    try await store.finish()
  }
}

// MARK: - Higher-order reducers (05-HigherOrderReducers-Recursion, ReusableOfflineDownloads)

/// TCA's `Nested`: a row of rows, to any depth, with a timer so that ending one can be seen.
enum ExNested {
  struct State: Equatable, Identifiable {
    let id: UUID
    var name = ""
    var rows: [State] = []
    var ticks = 0
  }
  indirect enum Action: Equatable, Sendable {
    case addRowButtonTapped, startTimer, tick
    case nameTextFieldChanged(String)
    case onDelete([Int])
    case rows(id: UUID, Action)
  }

  /// The recursive reducer: a row's rows are embedded with this same reducer, made anew for each
  /// action, as TCA's `forEach(\.rows, action: \.rows) { Self() }` makes it.
  @MainActor static func reducer(clock: TestClock, uuid: @escaping @MainActor () -> UUID)
    -> Reducer<State, Action>
  {
    Reduce(core(clock: clock, uuid: uuid))
      .forEach(\.rows, action: Action.rows) { state, action in
        reducer(clock: clock, uuid: uuid)(&state, action)
      }
      .reduce
  }

  @MainActor static func core(clock: TestClock, uuid: @escaping @MainActor () -> UUID)
    -> Reducer<State, Action>
  {
    { state, action in
      switch action {
      case .addRowButtonTapped:
        state.rows.append(State(id: uuid()))
        return .none
      case .startTimer:
        return .run { send in
          while true {
            try await clock.sleep(for: .seconds(1))
            await send(.tick)
          }
        }
      case .tick:
        state.ticks += 1
        return .none
      case .nameTextFieldChanged(let name):
        state.name = name
        return .none
      case .onDelete(let offsets):
        state.rows.exRemove(atOffsets: offsets)
        return .none
      case .rows:
        return .none
      }
    }
  }
}

enum ExDownload {
  enum Event: Equatable, Sendable { case response(String), updateProgress(Double) }
  enum Mode: Equatable, Sendable {
    case downloaded, notDownloaded, startingToDownload
    case downloading(progress: Double)
  }
  enum Alert: Equatable, Sendable { case stop, delete }
  enum AlertAction: Equatable, Sendable { case deleteButtonTapped, stopButtonTapped, dismiss }
  struct State: Equatable {
    var alert: Alert?
    let id: Int
    var mode = Mode.notDownloaded
    let url: URL
  }
  enum Action: Sendable {
    case alert(AlertAction)
    case buttonTapped
    case downloadClient(Result<Event, any Error>)
  }

  static func reducer(download: @escaping @Sendable (URL) -> AsyncThrowingStream<Event, any Error>)
    -> Reduce<State, Action>
  {
    Reduce<State, Action> { state, action in
      switch action {
      case .alert(.deleteButtonTapped):
        state.mode = .notDownloaded
        return .none
      case .alert(.stopButtonTapped):
        state.mode = .notDownloaded
        return .cancel(id: state.id)
      case .alert:
        return .none
      case .buttonTapped:
        switch state.mode {
        case .downloaded:
          state.alert = .delete
          return .none
        case .downloading, .startingToDownload:
          state.alert = .stop
          return .none
        case .notDownloaded:
          state.mode = .startingToDownload
          return .run { [url = state.url] send in
            for try await event in download(url) {
              await send(.downloadClient(.success(event)))
            }
          } catch: { error, send in
            await send(.downloadClient(.failure(error)))
          }
          .cancellable(id: state.id)
        }
      case .downloadClient(.success(.response)):
        state.mode = .downloaded
        state.alert = nil
        return .none
      case .downloadClient(.success(.updateProgress(let progress))):
        state.mode = .downloading(progress: progress)
        return .none
      case .downloadClient(.failure):
        state.mode = .notDownloaded
        state.alert = nil
        return .none
      }
    }
    .ifLet(\.alert, action: Action.alert) { _, _ in .dismiss }
  }
}

extension ExDownload.Action {
  var event: ExDownload.Event? {
    if case .downloadClient(.success(let event)) = self { event } else { nil }
  }
}

@MainActor
@Suite("Example apps port: higher-order reducers (RecursionTests, ReusableOfflineDownloadsTests)")
struct ExampleAppPortHigherOrderTests {
  @Test("add a row, then a row in it (RecursionTests.addRow)")
  func addRow() async throws {
    let store = TestStore(
      initialState: ExNested.State(id: exUUID(99)),
      ExNested.reducer(clock: TestClock(), uuid: exIncrementingUUID()))
    try await store.send(.addRowButtonTapped) { $0.rows.append(ExNested.State(id: exUUID(0))) }
    try await store.send(.rows(id: exUUID(0), .addRowButtonTapped)) {
      $0.rows[0].rows.append(ExNested.State(id: exUUID(1)))
    }
  }

  @Test("rename the root (RecursionTests.changeName)")
  func changeName() async throws {
    let store = TestStore(
      initialState: ExNested.State(id: exUUID(99)),
      ExNested.reducer(clock: TestClock(), uuid: exIncrementingUUID()))
    try await store.send(.nameTextFieldChanged("Blob")) { $0.name = "Blob" }
  }

  @Test("delete a row (RecursionTests.deleteRow)")
  func deleteRow() async throws {
    let store = TestStore(
      initialState: ExNested.State(
        id: exUUID(99), rows: (0...2).map { ExNested.State(id: exUUID($0)) }),
      ExNested.reducer(clock: TestClock(), uuid: exIncrementingUUID()))
    try await store.send(.onDelete([1])) { $0.rows.remove(at: 1) }
  }

  @Test("deleting a row ends the timers of the rows inside it, at any depth")
  func deleteRowEndsNestedTimers() async throws {
    let clock = TestClock()
    let deep = ExNested.State(
      id: exUUID(0), rows: [ExNested.State(id: exUUID(1), rows: [ExNested.State(id: exUUID(2))])])
    let store = TestStore(
      initialState: ExNested.State(id: exUUID(99), rows: [deep, ExNested.State(id: exUUID(3))]),
      ExNested.reducer(clock: clock, uuid: exIncrementingUUID()))
    store.timeout = patience
    try await store.send(
      .rows(id: exUUID(0), .rows(id: exUUID(1), .rows(id: exUUID(2), .startTimer))))
    try await store.send(.rows(id: exUUID(3), .startTimer))
    await clock.advance(by: .seconds(1))
    store.exhaustivity = .off
    try await store.receive(.rows(id: exUUID(0), .rows(id: exUUID(1), .rows(id: exUUID(2), .tick))))
    try await store.receive(.rows(id: exUUID(3), .tick))
    store.exhaustivity = .on
    #expect(store.state.rows[0].rows[0].rows[0].ticks == 1)
    try await store.send(.onDelete([0])) { $0.rows.remove(at: 0) }
    await clock.advance(by: .seconds(1))
    try await store.receive(.rows(id: exUUID(3), .tick)) { $0.rows[0].ticks = 2 }
    try await store.send(.onDelete([0])) { $0.rows = [] }
    try await store.finish()
  }

  let url = URL(string: "https://www.pointfree.co")!

  @Test("download with progress (ReusableComponentsDownloadComponentTests.downloadFlow)")
  func downloadFlow() async throws {
    let download = AsyncThrowingStream.makeStream(of: ExDownload.Event.self)
    let store = TestStore(
      initialState: ExDownload.State(id: 1, url: url), ExDownload.reducer { _ in download.stream })
    store.timeout = patience
    try await store.send(.buttonTapped) { $0.mode = .startingToDownload }
    download.continuation.yield(.updateProgress(0.2))
    try await store.receive({ $0.event == .updateProgress(0.2) }) {
      $0.mode = .downloading(progress: 0.2)
    }
    download.continuation.yield(.response("data"))
    download.continuation.finish()
    try await store.receive({ $0.event == .response("data") }) { $0.mode = .downloaded }
  }

  @Test("stop a download from its alert (cancelDownloadFlow)")
  func cancelDownloadFlow() async throws {
    let download = AsyncThrowingStream.makeStream(of: ExDownload.Event.self)
    let store = TestStore(
      initialState: ExDownload.State(id: 1, url: url), ExDownload.reducer { _ in download.stream })
    store.timeout = patience
    try await store.send(.buttonTapped) { $0.mode = .startingToDownload }
    download.continuation.yield(.updateProgress(0.2))
    try await store.receive({ $0.event == .updateProgress(0.2) }) {
      $0.mode = .downloading(progress: 0.2)
    }
    try await store.send(.buttonTapped) { $0.alert = .stop }
    try await store.send(.alert(.stopButtonTapped)) {
      $0.alert = nil
      $0.mode = .notDownloaded
    }
  }

  @Test("the download ends while its alert asks to stop (downloadFinishesWhileTryingToCancel)")
  func downloadFinishesWhileTryingToCancel() async throws {
    let download = AsyncThrowingStream.makeStream(of: ExDownload.Event.self)
    let store = TestStore(
      initialState: ExDownload.State(id: 1, url: url), ExDownload.reducer { _ in download.stream })
    store.timeout = patience
    let task = try await store.send(.buttonTapped) { $0.mode = .startingToDownload }
    try await store.send(.buttonTapped) { $0.alert = .stop }
    download.continuation.yield(.response("data"))
    download.continuation.finish()
    try await store.receive({ $0.event == .response("data") }) {
      $0.alert = nil
      $0.mode = .downloaded
    }
    await task.finish()
  }

  @Test("delete a download from its alert (deleteDownloadFlow)")
  func deleteDownloadFlow() async throws {
    let store = TestStore(
      initialState: ExDownload.State(id: 1, mode: .downloaded, url: url),
      ExDownload.reducer { _ in AsyncThrowingStream { $0.finish() } })
    try await store.send(.buttonTapped) { $0.alert = .delete }
    try await store.send(.alert(.deleteButtonTapped)) {
      $0.alert = nil
      $0.mode = .notDownloaded
    }
  }
}

// MARK: - The apps' views, as they drive their stores

/// What the example apps' views do with a plain `Store`: `.task { await store.send(...).finish() }`
/// whose cancellation (the view goes away, `.task(id:)` restarts) cancels the effects, scoped stores
/// of pushed screens and of an enum's case, rows found by id after they moved.
@MainActor
@Suite("Example apps port: the views' wiring (a plain Store, as the apps use it)")
struct ExampleAppPortViewTests {
  @Test("LongLivingEffectsView: leaving the view cancels the screenshot stream")
  func longLivingView() async {
    let (screenshots, takeScreenshot) = AsyncStream.makeStream(of: Void.self)
    let streamEnded = Gate()
    takeScreenshot.onTermination = { _ in streamEnded.open() }
    let store = Store(initialState: ExLongLiving.State(), ExLongLiving.reducer { screenshots })
    let task = store.send(.task)
    let view = Task { await task.finish() }  // `.task { await store.send(.task).finish() }`
    takeScreenshot.yield()
    await eventually { store.screenshotCount == 1 }
    view.cancel()
    await ended(view)
    await opened(streamEnded)
    #expect(task.isCancelled)
    takeScreenshot.yield()
    #expect(store.screenshotCount == 1)
  }

  @Test("SearchView: .task(id: query) restarting cancels the search it was waiting for")
  func searchViewTaskID() async {
    let (started, cancelled) = (Gate(), Gate())
    let store = Store(
      initialState: ExSearch.State(),
      ExSearch.reducer(search: { _ in
        started.open()
        await untilCancelled()
        cancelled.open()
        throw CancellationError()
      }))
    store.send(.searchQueryChanged("S"))
    let view = Task { await store.send(.searchQueryChangeDebounced).finish() }
    await opened(started)
    view.cancel()  // The query changed: SwiftUI cancels the view's task.
    await ended(view)
    await opened(cancelled)
    #expect(store.results == [])
  }

  @Test("RecordMeetingView in the stack: discarding pops it; its .task's finish() returns")
  func recordMeetingView() async {
    typealias Path = ExSyncUpsApp.Path
    let clock = TestClock()
    let syncUp = ExSyncUps.short
    let store = Store(
      initialState: ExSyncUpsApp.State(
        path: [
          .detail(ExSyncUpDetail.State(syncUp: syncUp)),
          .record(ExRecordMeeting.State(syncUp: syncUp)),
        ],
        syncUps: [syncUp]),
      ExSyncUpsApp.reducer(clock: clock, speech: ExSyncUps.speech(.denied)))
    let id = store.path.ids[1]
    guard
      let record = store.scope(
        state: { $0.path[id: id][case: Path.State.record] },
        action: { .path(id: id, .record($0)) })
    else {
      Issue.record("no record screen")
      return
    }
    let onTask = record.send(.onTask)
    let view = Task { await onTask.finish() }
    await clock.advance(by: .seconds(2))
    #expect(record.secondsElapsed == 2)
    #expect(record.speakerIndex == 1)
    record.send(.endMeetingButtonTapped)
    await clock.advance(by: .seconds(1))
    #expect(record.secondsElapsed == 2)
    await finished(record.send(.alert(.confirmDiscard)))
    #expect(store.path.count == 1)
    await ended(view)
    #expect(onTask.isCancelled)
    #expect(record.secondsElapsed == 2)  // The popped screen's store keeps its last state.
  }

  @Test("RecordMeetingView in the stack: the meeting ends, is saved to the detail and the list")
  func recordMeetingViewSaves() async {
    typealias Path = ExSyncUpsApp.Path
    let clock = TestClock()
    let syncUp = ExSyncUps.short
    let store = Store(
      initialState: ExSyncUpsApp.State(syncUps: [syncUp]),
      ExSyncUpsApp.reducer(clock: clock, speech: ExSyncUps.speech(.notDetermined)))
    store.send(.syncUpTapped(syncUp))
    let detailID = store.path.ids[0]
    store.send(.path(id: detailID, .detail(.startMeetingButtonTapped)))
    guard store.path.count == 2 else {
      Issue.record("no record screen pushed")
      return
    }
    let id = store.path.ids[1]
    guard
      let record = store.scope(
        state: { $0.path[id: id][case: Path.State.record] }, action: { .path(id: id, .record($0)) })
    else {
      Issue.record("no record screen")
      return
    }
    let onTask = record.send(.onTask)
    await clock.advance(by: .seconds(6))
    await finished(onTask)
    #expect(store.path.count == 1)
    #expect(store.syncUps.first?.meetings.count == 1)
    #expect(store.path[id: detailID][case: Path.State.detail]?.syncUp.meetings.count == 1)
  }

  @Test("AppView of TicTacToe: the login's store, once logged in, keeps its state; sends drop")
  func ticTacToeLoginStore() async {
    let client = ExAuthClient(login: { _, _ in
      ExAuthResponse(token: "deadbeef", twoFactorRequired: false)
    })
    let store = Store(
      initialState: ExTicTacToe.State.login(ExLogin.State()), ExTicTacToe.reducer(client))
    guard
      let login = store.scope(
        state: { if case .login(let login) = $0 { login } else { nil } },
        action: ExTicTacToe.Action.login)
    else {
      Issue.record("no login screen")
      return
    }
    login.send(.emailChanged("blob@pointfree.co"))
    login.send(.passwordChanged("bl0bbl0b"))
    #expect(login.isFormValid)
    await finished(login.send(.loginButtonTapped))
    #expect(store.state == .newGame(ExNewGame.State()))
    #expect(login.email == "blob@pointfree.co")
    let (_, reports) = await capturingReports { login.send(.loginButtonTapped) }
    #expect(reports.contains { $0.contains("dropped") })
    #expect(store.state == .newGame(ExNewGame.State()))
  }

  @Test("TodosView: a row's store follows its todo after the sort moves it")
  func todoRowAfterSort() async {
    let clock = TestClock()
    let store = Store(initialState: ExTodos.todos(false, false), ExTodos.reducer(clock: clock))
    let first = exUUID(0)
    guard
      let row = store.scope(
        state: { $0.todos.first { $0.id == first } }, action: { .todos(id: first, $0) })
    else {
      Issue.record("no row")
      return
    }
    let complete = row.send(.isCompleteChanged(true))
    await clock.advance(by: .seconds(1))
    await finished(complete)
    #expect(store.todos.map(\.id) == [exUUID(1), first])
    row.send(.descriptionChanged("Milk"))
    #expect(store.todos[1].description == "Milk")
    #expect(row.description == "Milk")
    store.send(.todos(id: exUUID(1), .descriptionChanged("Eggs")))
    #expect(store.todos.map(\.description) == ["Eggs", "Milk"])
    store.send(.clearCompletedButtonTapped)
    #expect(store.todos.map(\.id) == [exUUID(1)])
    let (_, reports) = await capturingReports { row.send(.descriptionChanged("Bread")) }
    #expect(reports.contains { $0.contains("dropped") })
    #expect(row.description == "Milk")
  }
}

// MARK: - SpeechRecognition (Examples/SpeechRecognition)

enum ExSpeechRecognition {
  enum Status: Equatable, Sendable { case authorized, denied, notDetermined, restricted }
  enum Failure: Error, Equatable { case couldntConfigureAudioSession, couldntStartAudioEngine }
  struct Client: Sendable {
    var finishTask: @Sendable () async -> Void = {}
    var requestAuthorization: @Sendable () async -> Status = { .notDetermined }
    var startTask: @Sendable () async -> AsyncThrowingStream<String, any Error> = {
      AsyncThrowingStream { $0.finish(throwing: ExUnimplemented()) }
    }
  }
  struct State: Equatable {
    var alert: String?
    var isRecording = false
    var transcribedText = ""
  }
  enum Action: Sendable {
    case alert(ExAlertAction)
    case recordButtonTapped
    case speech(Result<String, any Error>)
    case speechRecognizerAuthorizationStatusResponse(Status)
  }

  static func reducer(_ client: Client) -> Reduce<State, Action> {
    Reduce<State, Action> { state, action in
      switch action {
      case .alert:
        return .none
      case .recordButtonTapped:
        state.isRecording.toggle()
        guard state.isRecording else { return .run { _ in await client.finishTask() } }
        return .run { send in
          let status = await client.requestAuthorization()
          await send(.speechRecognizerAuthorizationStatusResponse(status))
          guard status == .authorized else { return }
          for try await result in await client.startTask() {
            await send(.speech(.success(result)))
          }
        } catch: { error, send in
          await send(.speech(.failure(error)))
        }
      case .speech(.failure(let error as Failure))
      where [.couldntConfigureAudioSession, .couldntStartAudioEngine].contains(error):
        state.alert = "Problem with audio device. Please try again."
        return .none
      case .speech(.failure):
        state.alert = "An error occurred while transcribing. Please try again."
        return .none
      case .speech(.success(let transcribedText)):
        state.transcribedText = transcribedText
        return .none
      case .speechRecognizerAuthorizationStatusResponse(let status):
        state.isRecording = status == .authorized
        switch status {
        case .authorized, .notDetermined:
          break
        case .denied:
          state.alert =
            "You denied access to speech recognition. This app needs access to transcribe your "
            + "speech."
        case .restricted:
          state.alert = "Your device does not allow speech recognition."
        }
        return .none
      }
    }
    .ifLet(\.alert, action: Action.alert) { _, _ in .dismiss }
  }
}

extension ExSpeechRecognition.Action {
  var status: ExSpeechRecognition.Status? {
    if case .speechRecognizerAuthorizationStatusResponse(let status) = self { status } else { nil }
  }
  var transcript: String? {
    if case .speech(.success(let text)) = self { text } else { nil }
  }
  var failed: Bool { if case .speech(.failure) = self { true } else { false } }
}

@MainActor
@Suite("Example apps port: SpeechRecognition (SpeechRecognitionTests)")
struct ExampleAppPortSpeechRecognitionTests {
  typealias Feature = ExSpeechRecognition

  @Test("denied authorization shows an alert (denyAuthorization)")
  func denyAuthorization() async throws {
    let store = TestStore(
      initialState: Feature.State(),
      Feature.reducer(Feature.Client(requestAuthorization: { .denied })))
    store.timeout = patience
    try await store.send(.recordButtonTapped) { $0.isRecording = true }
    try await store.receive({ $0.status == .denied }) {
      $0.alert =
        "You denied access to speech recognition. This app needs access to transcribe your speech."
      $0.isRecording = false
    }
  }

  @Test("restricted authorization shows an alert (restrictedAuthorization)")
  func restrictedAuthorization() async throws {
    let store = TestStore(
      initialState: Feature.State(),
      Feature.reducer(Feature.Client(requestAuthorization: { .restricted })))
    store.timeout = patience
    try await store.send(.recordButtonTapped) { $0.isRecording = true }
    try await store.receive({ $0.status == .restricted }) {
      $0.alert = "Your device does not allow speech recognition."
      $0.isRecording = false
    }
  }

  @Test("record two results, then stop (allowAndRecord)")
  func allowAndRecord() async throws {
    let recognitionTask = AsyncThrowingStream.makeStream(of: String.self)
    let store = TestStore(
      initialState: Feature.State(),
      Feature.reducer(
        Feature.Client(
          finishTask: { recognitionTask.continuation.finish() },
          requestAuthorization: { .authorized },
          startTask: { recognitionTask.stream })))
    store.timeout = patience
    try await store.send(.recordButtonTapped) { $0.isRecording = true }
    try await store.receive({ $0.status == .authorized })
    recognitionTask.continuation.yield("Hello")
    try await store.receive({ $0.transcript == "Hello" }) { $0.transcribedText = "Hello" }
    recognitionTask.continuation.yield("Hello world")
    try await store.receive({ $0.transcript == "Hello world" }) {
      $0.transcribedText = "Hello world"
    }
    try await store.send(.recordButtonTapped) { $0.isRecording = false }
    try await store.finish()
  }

  @Test("the audio session fails (audioSessionFailure)")
  func audioSessionFailure() async throws {
    let recognitionTask = AsyncThrowingStream.makeStream(of: String.self)
    let store = TestStore(
      initialState: Feature.State(),
      Feature.reducer(
        Feature.Client(
          requestAuthorization: { .authorized }, startTask: { recognitionTask.stream })))
    store.timeout = patience
    try await store.send(.recordButtonTapped) { $0.isRecording = true }
    try await store.receive({ $0.status == .authorized })
    recognitionTask.continuation.finish(throwing: Feature.Failure.couldntConfigureAudioSession)
    try await store.receive({ $0.failed }) {
      $0.alert = "Problem with audio device. Please try again."
    }
  }

  @Test("the audio engine fails (audioEngineFailure)")
  func audioEngineFailure() async throws {
    let recognitionTask = AsyncThrowingStream.makeStream(of: String.self)
    let store = TestStore(
      initialState: Feature.State(),
      Feature.reducer(
        Feature.Client(
          requestAuthorization: { .authorized }, startTask: { recognitionTask.stream })))
    store.timeout = patience
    try await store.send(.recordButtonTapped) { $0.isRecording = true }
    try await store.receive({ $0.status == .authorized })
    recognitionTask.continuation.finish(throwing: Feature.Failure.couldntStartAudioEngine)
    try await store.receive({ $0.failed }) {
      $0.alert = "Problem with audio device. Please try again."
    }
  }
}

// MARK: - Reusable favoriting (05-HigherOrderReducers-ReusableFavoriting)

enum ExFavoriting {
  struct State: Equatable {
    var alert: String?
    let id: UUID
    var isFavorite: Bool
  }
  enum Action: Sendable {
    case alertDismissed  // TCA's `.alert(.dismiss)`, which this feature handles itself.
    case buttonTapped
    case response(Result<Bool, any Error>)
  }
  struct CancelID: Hashable, Sendable { let id: UUID }

  static func reducer(favorite: @escaping @Sendable (UUID, Bool) async throws -> Bool) -> Reducer<
    State, Action
  > {
    { state, action in
      switch action {
      case .alertDismissed:
        state.alert = nil
        state.isFavorite.toggle()
        return .none
      case .buttonTapped:
        state.isFavorite.toggle()
        return .run { [id = state.id, isFavorite = state.isFavorite] send in
          await send(.response(await exResult { try await favorite(id, isFavorite) }))
        }
        .cancellable(id: CancelID(id: state.id), cancelInFlight: true)
      case .response(.failure):
        state.alert = "Favoriting failed."
        return .none
      case .response(.success(let isFavorite)):
        state.isFavorite = isFavorite
        return .none
      }
    }
  }
}

enum ExEpisodes {
  struct Episode: Equatable, Identifiable {
    var alert: String?
    let id: UUID
    var isFavorite = false
    var title = "Functions"
    /// TCA's `Scope(state: \.favorite, ...)`: the favoriting part of an episode.
    var favorite: ExFavoriting.State {
      get { ExFavoriting.State(alert: alert, id: id, isFavorite: isFavorite) }
      set { (alert, isFavorite) = (newValue.alert, newValue.isFavorite) }
    }
  }
  enum EpisodeAction: Sendable { case favorite(ExFavoriting.Action) }
  struct State: Equatable { var episodes: [Episode] = [] }
  enum Action: Sendable { case episodes(id: UUID, EpisodeAction) }

  static func reducer(favorite: @escaping @Sendable (UUID, Bool) async throws -> Bool) -> Reduce<
    State, Action
  > {
    Reduce<State, Action> { _, _ in .none }
      .forEach(
        \.episodes, action: Action.episodes,
        child: Reduce<Episode, EpisodeAction> { _, _ in .none }
          .scope(
            \.favorite, action: EpisodeAction.favorite,
            child: ExFavoriting.reducer(favorite: favorite)))
  }
}

extension ExEpisodes.Action {
  func response(_ id: UUID) -> Bool? {
    if case .episodes(id, .favorite(.response(let result))) = self {
      exIsSuccess(result)
    } else {
      nil
    }
  }
}

@MainActor
@Suite("Example apps port: reusable favoriting (ReusableComponentsFavoritingTests)")
struct ExampleAppPortFavoritingTests {
  @Test("favorite one; tap another twice: the first request is replaced (happyPath)")
  func happyPath() async throws {
    let clock = TestClock()
    let store = TestStore(
      initialState: ExEpisodes.State(episodes: (0...2).map { ExEpisodes.Episode(id: exUUID($0)) }),
      ExEpisodes.reducer(favorite: { _, isFavorite in
        try await clock.sleep(for: .seconds(1))
        return isFavorite
      }))
    store.timeout = patience
    try await store.send(.episodes(id: exUUID(0), .favorite(.buttonTapped))) {
      $0.episodes[0].isFavorite = true
    }
    await clock.advance(by: .seconds(1))
    try await store.receive({ $0.response(exUUID(0)) == true })
    try await store.send(.episodes(id: exUUID(1), .favorite(.buttonTapped))) {
      $0.episodes[1].isFavorite = true
    }
    try await store.send(.episodes(id: exUUID(1), .favorite(.buttonTapped))) {
      $0.episodes[1].isFavorite = false
    }
    await clock.advance(by: .seconds(1))
    try await store.receive({ $0.response(exUUID(1)) == true })
    try await store.finish()
  }

  @Test("a failed favorite shows an alert; dismissing it reverts (unhappyPath)")
  func unhappyPath() async throws {
    let store = TestStore(
      initialState: ExEpisodes.State(episodes: [ExEpisodes.Episode(id: exUUID(0))]),
      ExEpisodes.reducer(favorite: { _, _ in throw ExUnimplemented() }))
    store.timeout = patience
    try await store.send(.episodes(id: exUUID(0), .favorite(.buttonTapped))) {
      $0.episodes[0].isFavorite = true
    }
    try await store.receive({ $0.response(exUUID(0)) == false }) {
      $0.episodes[0].alert = "Favoriting failed."
    }
    try await store.send(.episodes(id: exUUID(0), .favorite(.alertDismissed))) {
      $0.episodes[0].alert = nil
      $0.episodes[0].isFavorite = false
    }
  }
}

// MARK: - SyncUps, the list (SyncUpsListTests)

enum ExSyncUpsList {
  enum Destination: Equatable { case add(ExSyncUpForm.State) }
  enum DestinationAction: Equatable, Sendable { case add(ExSyncUpForm.Action) }
  struct State: Equatable {
    var destination: Destination?
    var syncUps: [ExSyncUps.SyncUp] = []  // TCA: `@Shared(.syncUps)`.
  }
  enum Action: Equatable, Sendable {
    case addSyncUpButtonTapped, confirmAddSyncUpButtonTapped, dismissAddSyncUpButtonTapped
    case destination(DestinationAction)
    case onDelete([Int])
  }

  static func reducer(uuid: @escaping @MainActor () -> UUID) -> Reduce<State, Action> {
    Reduce<State, Action> { state, action in
      switch action {
      case .addSyncUpButtonTapped:
        // TCA's `SyncUpForm.State.init` adds an attendee to a sync-up that has none.
        state.destination = .add(
          ExSyncUpForm.State(
            syncUp: ExSyncUps.SyncUp(id: uuid(), attendees: [ExSyncUps.Attendee(id: uuid())])))
      case .confirmAddSyncUpButtonTapped:
        guard case .add(let form) = state.destination else { return .none }
        var syncUp = form.syncUp
        syncUp.attendees.removeAll { $0.name.allSatisfy(\.isWhitespace) }
        if syncUp.attendees.isEmpty {
          syncUp.attendees.append(form.syncUp.attendees.first ?? ExSyncUps.Attendee(id: uuid()))
        }
        state.syncUps.append(syncUp)
        state.destination = nil
      case .destination:
        break
      case .dismissAddSyncUpButtonTapped:
        state.destination = nil
      case .onDelete(let offsets):
        state.syncUps.exRemove(atOffsets: offsets)
      }
      return .none
    }
    .ifLet(
      \.destination, action: Action.destination,
      child: Reduce<Destination, DestinationAction> { _, _ in .none }
        .scope(Destination.add, action: DestinationAction.add, child: ExSyncUpForm.reducer))
  }
}

@MainActor
@Suite("Example apps port: SyncUps, the list (SyncUpsListTests)")
struct ExampleAppPortSyncUpsListTests {
  @Test("add a sync-up in a sheet, name it, confirm (add)")
  func add() async throws {
    let store = TestStore(
      initialState: ExSyncUpsList.State(), ExSyncUpsList.reducer(uuid: exIncrementingUUID()))
    var syncUp = ExSyncUps.SyncUp(id: exUUID(0), attendees: [ExSyncUps.Attendee(id: exUUID(1))])
    try await store.send(.addSyncUpButtonTapped) {
      $0.destination = .add(ExSyncUpForm.State(syncUp: syncUp))
    }
    syncUp.title = "Engineering"
    try await store.send(.destination(.add(.syncUpChanged(syncUp)))) {
      $0.destination[case: ExSyncUpsList.Destination.add]?.syncUp.title = "Engineering"
    }
    try await store.send(.confirmAddSyncUpButtonTapped) {
      $0.destination = nil
      $0.syncUps = [syncUp]
    }
  }

  @Test("confirm drops blank attendees but keeps one (addAndConfirmValidatesAttendees)")
  func addAndConfirmValidatesAttendees() async throws {
    let id = UUID(uuidString: "deadbeef-dead-beef-dead-beefdeadbeef")!
    let store = TestStore(
      initialState: ExSyncUpsList.State(
        destination: .add(
          ExSyncUpForm.State(
            syncUp: ExSyncUps.SyncUp(
              id: id,
              attendees: [
                ExSyncUps.Attendee(id: exUUID(0), name: ""),
                ExSyncUps.Attendee(id: exUUID(1), name: "    "),
              ],
              title: "Design")))),
      ExSyncUpsList.reducer(uuid: exIncrementingUUID()))
    try await store.send(.confirmAddSyncUpButtonTapped) {
      $0.destination = nil
      $0.syncUps = [
        ExSyncUps.SyncUp(id: id, attendees: [ExSyncUps.Attendee(id: exUUID(0))], title: "Design")
      ]
    }
  }
}
