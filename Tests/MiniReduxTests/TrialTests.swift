import MiniRedux
import Testing

// Trial: TCA-style features ported by a new user, and their tests, written against the public
// API only (plain `import MiniRedux`). Each `withKnownIssue` checks an expected test failure: a
// misuse, and that its message names MiniRedux and says what to do.

// MARK: - Features

/// A screen of a stack, TCA's counter screen: a timer, a close button, and a save that tells the
/// parent then dismisses itself, at once or after work.
enum TrialCounter {
  struct State: Equatable {
    var count = 0
    var ticks = 0
  }
  enum Action: Equatable, Sendable {
    case incrementTapped, startTimer, stopTimer, tick, closeTapped, saveTapped, saveAfterWork
    case delegate(Delegate)
  }
  enum Delegate: Equatable, Sendable { case saved(Int) }
  enum CancelID { case timer }

  static func reducer(clock: some Clock<Duration>) -> Reducer<State, Action> {
    return { state, action in
      switch action {
      case .incrementTapped:
        state.count += 1
        return .none
      case .startTimer:
        return .run { send in
          while true {
            try await clock.sleep(for: .seconds(1))
            await send(.tick)
          }
        }
        .cancellable(id: CancelID.timer, cancelInFlight: true)
      case .stopTimer:
        return .cancel(id: CancelID.timer)
      case .tick:
        state.ticks += 1
        return .none
      case .closeTapped:
        return .dismiss
      case .saveTapped:
        return .concatenate(.send(.delegate(.saved(state.count))), .dismiss)
      case .saveAfterWork:
        let count = state.count
        return .run { send in
          try await clock.sleep(for: .seconds(1))
          await send(.delegate(.saved(count)))
          await send.dismiss()
        }
      case .delegate:
        return .none
      }
    }
  }
}

/// TCA's `@Reducer enum Path`: a counter screen, or an about screen with no reducer of its own.
enum TrialPath {
  enum State: Equatable {
    case counter(TrialCounter.State)
    case about(String)
  }
  enum Action: Equatable, Sendable {
    case counter(TrialCounter.Action)
    case about(About)
  }
  enum About: Equatable, Sendable { case backTapped }

  static func reducer(clock: some Clock<Duration>) -> Reduce<State, Action> {
    Reduce<State, Action> { _, _ in .none }
      .scope(State.counter, action: Action.counter, child: TrialCounter.reducer(clock: clock))
      .scope(State.about, action: Action.about)
  }
}

/// A root with a navigation stack.
enum TrialStackApp {
  struct State: Equatable {
    var path = StackState<TrialPath.State>()
    var saved: [Int] = []
  }
  enum Action: Equatable, Sendable {
    case path(id: Int, TrialPath.Action)
    case pushCounter, pushAbout, popToRoot
    case popFrom(id: Int)
  }

  static func reducer(clock: some Clock<Duration>) -> Reduce<State, Action> {
    Reduce<State, Action> { state, action in
      switch action {
      case .pushCounter:
        state.path.append(.counter(TrialCounter.State()))
      case .pushAbout:
        state.path.append(.about("v1"))
      case .popToRoot:
        state.path.removeAll()
      case .popFrom(let id):
        state.path.pop(from: id)
      case .path(_, .counter(.delegate(.saved(let count)))):
        state.saved.append(count)
      case .path:
        break
      }
      return .none
    }
    .forEach(\.path, action: Action.path, child: TrialPath.reducer(clock: clock))
  }
}

/// A form shown in a sheet: it saves, tells its parent, and closes itself.
enum TrialItemForm {
  struct State: Equatable, Identifiable {
    var id: Int
    var name = ""
  }
  enum Action: Equatable, Sendable {
    case nameChanged(String), saveTapped, cancelTapped, startAutosave, autosaved
    case delegate(Delegate)
  }
  enum Delegate: Equatable, Sendable { case save(String) }

  static func reducer(clock: some Clock<Duration>) -> Reducer<State, Action> {
    return { state, action in
      switch action {
      case .nameChanged(let name):
        state.name = name
        return .none
      case .saveTapped:
        return .concatenate(.send(.delegate(.save(state.name))), .dismiss)
      case .cancelTapped:
        return .dismiss
      case .startAutosave:
        return .run { send in
          while true {
            try await clock.sleep(for: .seconds(5))
            await send(.autosaved)
          }
        }
      case .autosaved, .delegate:
        return .none
      }
    }
  }
}

/// TCA's tree navigation: one optional destination enum, a sheet, an alert and a dialog.
enum TrialInventory {
  struct State: Equatable {
    var items: [String] = ["Mug", "Pen"]
    var destination: Destination?
    var nextID = 0
  }
  enum Destination: Equatable {
    case add(TrialItemForm.State)
    case alert(String)
    case dialog(String)
  }
  enum DestinationAction: Equatable, Sendable {
    case add(TrialItemForm.Action)
    case alert(AlertAction)
    case dialog(DialogAction)
  }
  enum AlertAction: Equatable, Sendable { case confirmDelete(String), cancel }
  enum DialogAction: Equatable, Sendable { case duplicate(String), cancel }
  enum Action: Equatable, Sendable {
    case addTapped, deleteTapped(String), moreTapped(String), sheetDismissed
    case destination(DestinationAction)
  }

  static func reducer(clock: some Clock<Duration>) -> Reduce<State, Action> {
    Reduce<State, Action> { state, action in
      switch action {
      case .addTapped:
        state.destination = .add(TrialItemForm.State(id: state.nextID))
        state.nextID += 1
      case .deleteTapped(let name):
        state.destination = .alert(name)
      case .moreTapped(let name):
        state.destination = .dialog(name)
      case .sheetDismissed:
        state.destination = nil
      case .destination(.add(.delegate(.save(let name)))):
        state.items.append(name)
      case .destination(.alert(.confirmDelete(let name))):
        state.items.removeAll { $0 == name }
      case .destination(.dialog(.duplicate(let name))):
        state.items.append(name)
      case .destination:
        break
      }
      return .none
    }
    .ifLet(
      \.destination, action: Action.destination,
      child: Reduce<Destination, DestinationAction> { _, _ in .none }
        .scope(
          Destination.add, action: DestinationAction.add,
          child: TrialItemForm.reducer(clock: clock)
        )
        .scope(Destination.alert, action: DestinationAction.alert)
        .scope(Destination.dialog, action: DestinationAction.dialog))
  }
}

/// A list of rows, each running a timer; a row removes itself through its parent or `.dismiss`.
enum TrialTimers {
  struct Row: Equatable, Identifiable {
    let id: Int
    var seconds = 0
  }
  enum RowAction: Equatable, Sendable {
    case start, tick, removeTapped, closeTapped
    case delegate(RowDelegate)
  }
  enum RowDelegate: Equatable, Sendable { case remove }
  struct State: Equatable {
    var rows: [Row] = []
  }
  enum Action: Equatable, Sendable {
    case add(Int), removeAll
    case row(id: Int, RowAction)
  }
  enum CancelID { case tick }

  static func row(clock: some Clock<Duration>) -> Reducer<Row, RowAction> {
    return { row, action in
      switch action {
      case .start:
        return .run { send in
          while true {
            try await clock.sleep(for: .seconds(1))
            await send(.tick)
          }
        }
        .cancellable(id: CancelID.tick, cancelInFlight: true)
      case .tick:
        row.seconds += 1
        return .none
      case .removeTapped:
        return .send(.delegate(.remove))
      case .closeTapped:
        return .dismiss
      case .delegate:
        return .none
      }
    }
  }

  static func reducer(clock: some Clock<Duration>) -> Reduce<State, Action> {
    Reduce<State, Action> { state, action in
      switch action {
      case .add(let id):
        state.rows.append(Row(id: id))
      case .removeAll:
        state.rows.removeAll()
      case .row(let id, .delegate(.remove)):
        state.rows.removeAll { $0.id == id }
      case .row:
        break
      }
      return .none
    }
    .forEach(\.rows, action: Action.row, child: row(clock: clock))
  }
}

/// Search as you type, debounced, with a request that `cancelInFlight` keeps to the latest.
enum TrialSearch {
  struct State: Equatable {
    var query = ""
    var results: [String] = []
    var loads = 0
  }
  enum Action: Equatable, Sendable {
    case queryChanged(String), searchNow, resultsLoaded([String])
  }
  enum CancelID { case search, request }

  static func reducer(
    clock: some Clock<Duration>, search: @escaping @Sendable (String) async throws -> [String]
  ) -> Reducer<State, Action> {
    return { state, action in
      switch action {
      case .queryChanged(let query):
        state.query = query
        guard !query.isEmpty else {
          state.results = []
          return .cancel(id: CancelID.search)
        }
        return .run { send in await send(.resultsLoaded(try await search(query))) }
          .debounce(id: CancelID.search, for: .milliseconds(300), clock: clock)
      case .searchNow:
        state.loads += 1
        let (query, load) = (state.query, state.loads)
        return .run { send in
          try await clock.sleep(for: .seconds(1))
          await send(.resultsLoaded(try await search("\(query)#\(load)")))
        }
        .cancellable(id: CancelID.request, cancelInFlight: true)
      case .resultsLoaded(let results):
        state.results = results
        return .none
      }
    }
  }
}

/// Effects composed by hand: concatenate, merge, map of a child, and a fact loader.
enum TrialSteps {
  struct State: Equatable {
    var log: [String] = []
    var child = 0
    var fact: String?
  }
  enum ChildAction: Equatable, Sendable { case bump, bumped }
  enum Action: Equatable, Sendable {
    case sequence, parallel, child(ChildAction), step(String), factTapped, factLoaded(String)
    case failing, failingCaught, failed(String), leakSend, late
  }

  static func child(_ count: inout Int, _ action: ChildAction) -> Effect<ChildAction> {
    switch action {
    case .bump:
      return .run { send in await send(.bumped) }
    case .bumped:
      count += 1
      return .none
    }
  }

  struct Boom: Error {}
  /// Where a `.run` leaks its `Send`, to call it after returning.
  actor Leak {
    var send: Send<Action>?
    func keep(_ send: Send<Action>) { self.send = send }
  }

  static func reducer(clock: some Clock<Duration>, leak: Leak = Leak()) -> Reducer<State, Action> {
    return { state, action in
      switch action {
      case .sequence:
        return .concatenate(
          .run { send in
            try await clock.sleep(for: .seconds(2))
            await send(.step("a"))
          },
          .run { send in await send(.step("b")) },
          .send(.step("c")))
      case .parallel:
        return .merge(
          .run { send in
            try await clock.sleep(for: .seconds(2))
            await send(.step("slow"))
          },
          .run { send in
            try await clock.sleep(for: .seconds(1))
            await send(.step("fast"))
          })
      case .child(let childAction):
        return child(&state.child, childAction).map(Action.child)
      case .step(let name):
        state.log.append(name)
        return .none
      case .factTapped:
        return .run { send in await send(.factLoaded("\(42) is the answer")) }
      case .factLoaded(let fact):
        state.fact = fact
        return .none
      case .failing:
        return .run { _ in throw Boom() }
      case .failingCaught:
        return .run { _ in
          throw Boom()
        } catch: { error, send in
          await send(.failed("\(error)"))
        }
      case .failed(let message):
        state.log.append(message)
        return .none
      case .leakSend:
        return .run { send in await leak.keep(send) }
      case .late:
        return .none
      }
    }
  }
}

// MARK: - Stack navigation

@MainActor
@Suite("Trial: a navigation stack, TCA style")
struct TrialStackTests {
  @Test("push, change a screen by id, pop(from:) ends the popped screens' timers")
  func pushAndPop() async throws {
    let clock = TestClock()
    let store = TestStore(initialState: TrialStackApp.State(), TrialStackApp.reducer(clock: clock))
    try await store.send(.pushCounter) { $0.path.append(.counter(TrialCounter.State())) }
    try await store.send(.pushAbout) { $0.path.append(.about("v1")) }
    try await store.send(.pushCounter) { $0.path.append(.counter(TrialCounter.State())) }
    #expect(store.state.path.ids == [0, 1, 2])
    try await store.send(.path(id: 2, .counter(.incrementTapped))) {
      $0.path[id: 2][case: TrialPath.State.counter]?.count = 1
    }
    try await store.send(.path(id: 0, .counter(.startTimer)))
    try await store.send(.path(id: 2, .counter(.startTimer)))
    await clock.advance(by: .seconds(1))
    // Two timers tick at the same instant; their order is not guaranteed: skip, then check.
    store.skipReceivedActions()
    #expect(store.state.path[id: 0][case: TrialPath.State.counter]?.ticks == 1)
    #expect(store.state.path[id: 2][case: TrialPath.State.counter]?.ticks == 1)
    try await store.send(.popFrom(id: 1)) { $0.path.pop(from: 1) }
    await clock.advance(by: .seconds(1))
    try await store.receive(.path(id: 0, .counter(.tick))) {
      $0.path[id: 0][case: TrialPath.State.counter]?.ticks = 2
    }
    try await store.send(.popToRoot) { $0.path.removeAll() }
    await clock.advance(by: .seconds(5))
    try await store.finish()
  }

  @Test("a screen that returns .dismiss is popped with the screens above it, in its own step")
  func dismissPopsAbove() async throws {
    let clock = TestClock()
    let store = TestStore(initialState: TrialStackApp.State(), TrialStackApp.reducer(clock: clock))
    try await store.send(.pushCounter) { $0.path.append(.counter(TrialCounter.State())) }
    try await store.send(.pushCounter) { $0.path.append(.counter(TrialCounter.State())) }
    try await store.send(.pushCounter) { $0.path.append(.counter(TrialCounter.State())) }
    try await store.send(.path(id: 2, .counter(.startTimer)))
    try await store.send(.path(id: 1, .counter(.closeTapped))) { $0.path.pop(from: 1) }
    try await store.finish()
  }

  @Test("an about screen with no reducer pops on any of its actions")
  func aboutPops() async throws {
    let store = TestStore(
      initialState: TrialStackApp.State(), TrialStackApp.reducer(clock: TestClock()))
    try await store.send(.pushAbout) { $0.path.append(.about("v1")) }
    try await store.send(.path(id: 0, .about(.backTapped))) { $0.path[id: 0] = nil }
    try await store.finish()
  }

  @Test("save: tell the parent, then dismiss; at once, and from a .run after work")
  func saveThenDismiss() async throws {
    let clock = TestClock()
    let store = TestStore(initialState: TrialStackApp.State(), TrialStackApp.reducer(clock: clock))
    try await store.send(.pushCounter) { $0.path.append(.counter(TrialCounter.State())) }
    try await store.send(.path(id: 0, .counter(.incrementTapped))) {
      $0.path[id: 0][case: TrialPath.State.counter]?.count = 1
    }
    try await store.send(.path(id: 0, .counter(.saveTapped)))
    try await store.receive(.path(id: 0, .counter(.delegate(.saved(1))))) { $0.saved = [1] }
    try await store.receiveDismiss { $0.path[id: 0] = nil }

    try await store.send(.pushCounter) { $0.path.append(.counter(TrialCounter.State())) }
    try await store.send(.path(id: 1, .counter(.startTimer)))
    try await store.send(.path(id: 1, .counter(.saveAfterWork)))
    await clock.advance(by: .seconds(1))
    // The timer ticks at the same instant as the save's sleep ends.
    store.exhaustivity = .off
    try await store.receive(.path(id: 1, .counter(.delegate(.saved(0))))) { $0.saved = [1, 0] }
    try await store.receiveDismiss { $0.path = [] }
    store.exhaustivity = .on
    #expect(store.state.path.isEmpty)
    await clock.advance(by: .seconds(3))
    try await store.finish()
  }

  @Test("a plain Store: StackState ids come from the process, read them from path.ids")
  func plainStore() async {
    let clock = TestClock()
    let store = Store(initialState: TrialStackApp.State(), TrialStackApp.reducer(clock: clock))
    store.send(.pushCounter)
    store.send(.pushCounter)
    let (bottom, top) = (store.path.ids[0], store.path.ids[1])
    let timer = store.send(.path(id: top, .counter(.startTimer)))
    await clock.advance(by: .seconds(2))
    #expect(store.path[id: top][case: TrialPath.State.counter]?.ticks == 2)
    store.send(.popFrom(id: bottom))
    await timer.finish()
    #expect(timer.isCancelled)
    #expect(store.path.isEmpty)
  }

  @Test("a scoped store of a screen, from path[id:], keeps its last state once popped")
  func scopedScreen() {
    let store = Store(
      initialState: TrialStackApp.State(), TrialStackApp.reducer(clock: TestClock()))
    store.send(.pushCounter)
    let id = store.path.ids[0]
    guard
      let screen = store.scope(state: { $0.path[id: id] }, action: { .path(id: id, $0) })
    else {
      Issue.record("no screen")
      return
    }
    screen.send(.counter(.incrementTapped))
    #expect(screen.state == .counter(TrialCounter.State(count: 1)))
    store.send(.popToRoot)
    // Sent to a screen that is gone: dropped, and reported, which fails the test that runs.
    withKnownIssue {
      screen.send(.counter(.incrementTapped))
    } matching: { issue in
      says(issue, "MiniRedux: dropped .path(id: \(id), .counter(.incrementTapped))")
    }
    #expect(screen.state == .counter(TrialCounter.State(count: 1)))
    #expect(store.path.isEmpty)
  }
}

// MARK: - Tree navigation

@MainActor
@Suite("Trial: tree navigation with an optional destination enum")
struct TrialTreeTests {
  @Test("the sheet saves, tells the list, then closes; its autosave ends with it")
  func sheetSaves() async throws {
    let clock = TestClock()
    let store = TestStore(
      initialState: TrialInventory.State(), TrialInventory.reducer(clock: clock))
    try await store.send(.addTapped) {
      $0.destination = .add(TrialItemForm.State(id: 0))
      $0.nextID = 1
    }
    try await store.send(.destination(.add(.startAutosave)))
    try await store.send(.destination(.add(.nameChanged("Cup")))) {
      $0.destination[case: TrialInventory.Destination.add]?.name = "Cup"
    }
    await clock.advance(by: .seconds(5))
    try await store.receive(.destination(.add(.autosaved)))
    try await store.send(.destination(.add(.saveTapped)))
    try await store.receive(.destination(.add(.delegate(.save("Cup"))))) {
      $0.items.append("Cup")
    }
    try await store.receiveDismiss { $0.destination = nil }
    await clock.advance(by: .seconds(10))
    try await store.finish()
  }

  @Test("cancel closes the sheet in the same step; swiping it down ends its effects")
  func sheetCancels() async throws {
    let clock = TestClock()
    let store = TestStore(
      initialState: TrialInventory.State(), TrialInventory.reducer(clock: clock))
    try await store.send(.addTapped) {
      $0.destination = .add(TrialItemForm.State(id: 0))
      $0.nextID = 1
    }
    try await store.send(.destination(.add(.cancelTapped))) { $0.destination = nil }
    try await store.send(.addTapped) {
      $0.destination = .add(TrialItemForm.State(id: 1))
      $0.nextID = 2
    }
    try await store.send(.destination(.add(.startAutosave)))
    try await store.send(.sheetDismissed) { $0.destination = nil }
    try await store.finish()
  }

  @Test("an alert and a dialog with no reducer close on their buttons; the list acts after")
  func alertAndDialog() async throws {
    let store = TestStore(
      initialState: TrialInventory.State(), TrialInventory.reducer(clock: TestClock()))
    try await store.send(.deleteTapped("Mug")) { $0.destination = .alert("Mug") }
    try await store.send(.destination(.alert(.confirmDelete("Mug")))) {
      $0.destination = nil
      $0.items = ["Pen"]
    }
    try await store.send(.moreTapped("Pen")) { $0.destination = .dialog("Pen") }
    try await store.send(.destination(.dialog(.cancel))) { $0.destination = nil }
    try await store.send(.moreTapped("Pen")) { $0.destination = .dialog("Pen") }
    try await store.send(.destination(.dialog(.duplicate("Pen")))) {
      $0.destination = nil
      $0.items = ["Pen", "Pen"]
    }
    try await store.finish()
  }

  @Test("an alert replacing the sheet ends the sheet's effects")
  func replacedByAlert() async throws {
    let clock = TestClock()
    let store = TestStore(
      initialState: TrialInventory.State(), TrialInventory.reducer(clock: clock))
    try await store.send(.addTapped) {
      $0.destination = .add(TrialItemForm.State(id: 0))
      $0.nextID = 1
    }
    try await store.send(.destination(.add(.startAutosave)))
    try await store.send(.deleteTapped("Pen")) { $0.destination = .alert("Pen") }
    await clock.advance(by: .seconds(10))
    try await store.finish()
  }

  @Test("a scoped store of the sheet, as sheet(item:) makes it")
  func scopedSheet() {
    let store = Store(
      initialState: TrialInventory.State(), TrialInventory.reducer(clock: TestClock()))
    #expect(
      store.scope(
        state: { $0.destination[case: TrialInventory.Destination.add] },
        action: { .destination(.add($0)) }) == nil)
    store.send(.addTapped)
    let form = store.scope(
      state: { $0.destination[case: TrialInventory.Destination.add] },
      action: { .destination(.add($0)) })
    form?.send(.nameChanged("Lamp"))
    form?.send(.saveTapped)
    #expect(store.items == ["Mug", "Pen", "Lamp"])
    #expect(store.destination == nil)
    #expect(form?.name == "Lamp")
  }
}

// MARK: - Rows with timers

@MainActor
@Suite("Trial: rows each running a timer, removed while it runs")
struct TrialRowsTests {
  @Test("removing a row by its delegate, by .dismiss, or all at once ends its timer")
  func rowsRemoved() async throws {
    let clock = TestClock()
    let store = TestStore(initialState: TrialTimers.State(), TrialTimers.reducer(clock: clock))
    for id in [10, 20, 30] {
      try await store.send(.add(id)) { $0.rows.append(TrialTimers.Row(id: id)) }
      try await store.send(.row(id: id, .start))
    }
    await clock.advance(by: .seconds(1))
    store.skipReceivedActions()  // Three ticks at one instant: any order.
    #expect(store.state.rows.map(\.seconds) == [1, 1, 1])
    try await store.send(.row(id: 20, .removeTapped))
    try await store.receive(.row(id: 20, .delegate(.remove))) { $0.rows.remove(at: 1) }
    try await store.send(.row(id: 10, .closeTapped)) { $0.rows.remove(at: 0) }
    await clock.advance(by: .seconds(1))
    try await store.receive(.row(id: 30, .tick)) { $0.rows[0].seconds = 2 }
    // The same id in two rows is two effects: restarting row 30 does not touch others.
    try await store.send(.add(40)) { $0.rows.append(TrialTimers.Row(id: 40)) }
    try await store.send(.row(id: 40, .start))
    try await store.send(.row(id: 30, .start))
    await clock.advance(by: .seconds(1))
    store.skipReceivedActions()
    #expect(store.state.rows.map(\.seconds) == [3, 1])
    try await store.send(.removeAll) { $0.rows = [] }
    await clock.advance(by: .seconds(3))
    try await store.finish()
  }
}

// MARK: - Effects

@MainActor
@Suite("Trial: effects, debounce, cancellation")
struct TrialEffectTests {
  @Test("search as you type: one debounced request, for the last query; empty cancels")
  func debounced() async throws {
    let clock = TestClock()
    let store = TestStore(
      initialState: TrialSearch.State(),
      TrialSearch.reducer(clock: clock) { query in ["\(query)!"] })
    try await store.send(.queryChanged("s")) { $0.query = "s" }
    await clock.advance(by: .milliseconds(200))
    try await store.send(.queryChanged("sw")) { $0.query = "sw" }
    await clock.advance(by: .milliseconds(200))
    try await store.send(.queryChanged("swi")) { $0.query = "swi" }
    await clock.advance(by: .milliseconds(300))
    try await store.receive(.resultsLoaded(["swi!"])) { $0.results = ["swi!"] }
    try await store.send(.queryChanged("swif")) { $0.query = "swif" }
    try await store.send(.queryChanged("")) {
      $0.query = ""
      $0.results = []
    }
    await clock.advance(by: .seconds(1))
    try await store.finish()
  }

  @Test("cancelInFlight: a second tap replaces the first request")
  func cancelInFlight() async throws {
    let clock = TestClock()
    let store = TestStore(
      initialState: TrialSearch.State(query: "q"),
      TrialSearch.reducer(clock: clock) { query in [query] })
    let first = try await store.send(.searchNow) { $0.loads = 1 }
    await clock.advance(by: .milliseconds(500))
    try await store.send(.searchNow) { $0.loads = 2 }
    await clock.advance(by: .seconds(1))
    try await store.receive(.resultsLoaded(["q#2"])) { $0.results = ["q#2"] }
    try await store.finish()
    #expect(first.isCancelled)
  }

  @Test("concatenate runs in order; merge runs together; map embeds a child's effect")
  func composition() async throws {
    let clock = TestClock()
    let store = TestStore(initialState: TrialSteps.State(), TrialSteps.reducer(clock: clock))
    try await store.send(.sequence)
    await clock.advance(by: .seconds(2))
    try await store.receive(.step("a")) { $0.log = ["a"] }
    try await store.receive(.step("b")) { $0.log = ["a", "b"] }
    try await store.receive(.step("c")) { $0.log = ["a", "b", "c"] }
    try await store.send(.parallel)
    await clock.advance(by: .seconds(2))
    try await store.receive(.step("fast")) { $0.log.append("fast") }
    try await store.receive(.step("slow")) { $0.log.append("slow") }
    try await store.send(.child(.bump))
    try await store.receive(.child(.bumped)) { $0.child = 1 }
    try await store.finish()
  }

  @Test("receive by value, by case, by case with where:, by closure")
  func receiveForms() async throws {
    let store = TestStore(initialState: TrialSteps.State(), TrialSteps.reducer(clock: TestClock()))
    try await store.send(.factTapped)
    try await store.receive(.factLoaded("42 is the answer")) { $0.fact = "42 is the answer" }
    try await store.send(.factTapped)
    try await store.receive(TrialSteps.Action.factLoaded)
    try await store.send(.factTapped)
    try await store.receive(TrialSteps.Action.factLoaded, where: { $0.hasPrefix("42") })
    try await store.send(.factTapped)
    try await store.receive({ if case .factLoaded = $0 { true } else { false } })
    try await store.finish()
  }

  @Test("catch: turns an error into an action")
  func caught() async throws {
    let store = TestStore(initialState: TrialSteps.State(), TrialSteps.reducer(clock: TestClock()))
    try await store.send(.failingCaught)
    try await store.receive(.failed("Boom()")) { $0.log = ["Boom()"] }
    try await store.finish()
  }

  @Test("non-exhaustive: assert only the fact; finish does not ask for the rest")
  func nonExhaustive() async throws {
    let clock = TestClock()
    let store = TestStore(initialState: TrialSteps.State(), TrialSteps.reducer(clock: clock))
    store.exhaustivity = .off
    try await store.send(.sequence)
    await clock.advance(by: .seconds(2))
    try await store.receive(.step("c")) { $0.log = ["a", "b", "c"] }
    try await store.send(.factTapped)
    try await store.send(.child(.bump))
    try await store.receive(.child(.bumped)) { $0.child = 1 }
    try await store.finish()
    #expect(store.state.fact == "42 is the answer")
  }

  @Test("StoreTask: cancel() stops a timer, isCancelled tells; a finished task is not cancelled")
  func storeTask() async {
    let clock = TestClock()
    let store = Store(initialState: TrialTimers.State(), TrialTimers.reducer(clock: clock))
    store.send(.add(1))
    let timer = store.send(.row(id: 1, .start))
    await clock.advance(by: .seconds(2))
    #expect(store.rows[0].seconds == 2)
    #expect(!timer.isCancelled)
    timer.cancel()
    await timer.finish()
    #expect(timer.isCancelled)
    await clock.advance(by: .seconds(2))
    #expect(store.rows[0].seconds == 2)

    let steps = Store(initialState: TrialSteps.State(), TrialSteps.reducer(clock: clock))
    let fact = steps.send(.factTapped)
    await fact.finish()
    #expect(!fact.isCancelled)
    #expect(steps.fact == "42 is the answer")
    // As in TCA, a send that started no effect returns a task that reads cancelled.
    #expect(steps.send(.step("x")).isCancelled)
  }

  @Test("initialAction: reduced during init, in a Store and a TestStore")
  func initialAction() async throws {
    let store = Store(
      initialState: TrialSteps.State(), initialAction: .step("init"),
      TrialSteps.reducer(clock: TestClock()))
    #expect(store.log == ["init"])

    let test = TestStore(
      initialState: TrialSteps.State(), initialAction: .factTapped,
      TrialSteps.reducer(clock: TestClock()))
    try await test.receive(.factLoaded("42 is the answer")) { $0.fact = "42 is the answer" }
    try await test.finish()
  }

  @Test("Store.scope with subscribe and states")
  func scopeSubscribeStates() async {
    let store = Store(initialState: TrialSteps.State(), TrialSteps.reducer(clock: TestClock()))
    let child: Store<Int, TrialSteps.ChildAction> =
      store.scope(state: \.child, action: TrialSteps.Action.child)
    var heard: [Int] = []
    let subscription = child.subscribe { heard.append($0) }
    await child.send(.bump).finish()
    store.send(.step("unrelated"))  // The child's state did not change: not heard.
    await child.send(.bump).finish()
    subscription.cancel()
    await child.send(.bump).finish()
    #expect(heard == [0, 1, 2])
    #expect(child.state == 3)

    var counts = store.states.makeAsyncIterator()
    #expect(await counts.next()?.child == 3)
    store.send(.step("y"))
    #expect(await counts.next()?.log == ["unrelated", "y"])
  }
}

// MARK: - Misuse

/// Whether one of `issue`'s comments contains `text`.
private func says(_ issue: Issue, _ text: String) -> Bool {
  issue.comments.contains { $0.rawValue.contains(text) }
}

@MainActor
@Suite("Trial: what a new user gets wrong")
struct TrialMisuseTests {
  @Test("sending to a screen that was popped fails the step, naming the whole path")
  func sendToGoneChild() async throws {
    let store = TestStore(
      initialState: TrialStackApp.State(), TrialStackApp.reducer(clock: TestClock()))
    try await store.send(.pushCounter) { $0.path.append(.counter(TrialCounter.State())) }
    try await store.send(.popToRoot) { $0.path = [] }
    try await withKnownIssue {
      try await store.send(.path(id: 0, .counter(.incrementTapped)))
    } matching: { issue in
      says(issue, "MiniRedux: dropped .path(id: 0, .counter(.incrementTapped))")
        && says(issue, "the child it is for is gone")
    }
    try await store.finish()
  }

  @Test("an action for a destination case that is not shown is dropped")
  func wrongCase() async throws {
    let store = TestStore(
      initialState: TrialInventory.State(), TrialInventory.reducer(clock: TestClock()))
    try await store.send(.deleteTapped("Mug")) { $0.destination = .alert("Mug") }
    try await withKnownIssue {
      try await store.send(.destination(.add(.saveTapped)))
    } matching: { issue in
      says(issue, "MiniRedux: dropped .destination(.add(.saveTapped))")
    }
    try await store.finish()
  }

  @Test("a forgotten receive fails the next send, as TCA's does; a receive still finds it")
  func forgottenReceive() async throws {
    let store = TestStore(initialState: TrialSteps.State(), TrialSteps.reducer(clock: TestClock()))
    try await store.send(.factTapped)
    // The effect's send waits for the main actor, which the test holds; the next send lets it in.
    try await withKnownIssue {
      try await store.send(.step("x")) { $0.log = ["x"] }
    } matching: { issue in
      says(issue, "actions received earlier were not asserted with receive:")
        && says(issue, ".factLoaded(\"42 is the answer\")")
    }
    try await store.receive(.factLoaded("42 is the answer")) { $0.fact = "42 is the answer" }
    try await store.finish()
  }

  @Test("a forgotten finish fails the test at the line that made the store")
  func forgottenFinish() async throws {
    let clock = TestClock()
    try await withKnownIssue {
      let store = TestStore(
        initialState: TrialTimers.State(rows: [TrialTimers.Row(id: 1)]),
        TrialTimers.reducer(clock: clock))
      try await store.send(.row(id: 1, .start))
    } matching: { issue in
      says(issue, "MiniRedux: the TestStore created at MiniReduxTests/TrialTests.swift")
        && says(issue, "end the test with `try await store.finish()`")
    }
  }

  @Test("an effect that throws with no catch: fails the next step, saying to pass catch:")
  func uncaughtError() async throws {
    let store = TestStore(initialState: TrialSteps.State(), TrialSteps.reducer(clock: TestClock()))
    try await store.send(.failing)
    try await withKnownIssue {
      try await store.finish()
    } matching: { issue in
      says(issue, "MiniRedux: an effect started by") && says(issue, "threw Boom()")
        && says(issue, "Pass `catch:` to .run")
    }
  }

  @Test("a .run that calls send after returning: dropped and reported")
  func sendAfterReturn() async throws {
    let leak = TrialSteps.Leak()
    let store = TestStore(
      initialState: TrialSteps.State(), TrialSteps.reducer(clock: TestClock(), leak: leak))
    try await store.send(.leakSend)
    try await store.finish()
    let send = await leak.send
    // Outside the test store's steps, it fails the test that runs, as TCA's report does.
    withKnownIssue {
      send?(.step("late"))
    } matching: { issue in
      says(issue, "MiniRedux: an effect sent step(\"late\") after its operation had returned")
    }
    #expect(store.state.log == [])
    try await store.send(.late)
    try await store.finish()
  }

  @Test("a closure on an action that changed nothing fails")
  func closureAssertsNothing() async throws {
    let store = TestStore(initialState: TrialSteps.State(), TrialSteps.reducer(clock: TestClock()))
    try await withKnownIssue {
      try await store.send(.late) { $0.log = [] }
    } matching: { issue in
      says(issue, "expected the state to change, but it did not")
    }
    try await store.finish()
  }

  @Test("receive of the wrong action says what came")
  func wrongReceive() async throws {
    let store = TestStore(initialState: TrialSteps.State(), TrialSteps.reducer(clock: TestClock()))
    try await store.send(.factTapped)
    try await withKnownIssue {
      try await store.receive(.factLoaded("nope"))
    } matching: { issue in
      says(issue, "receive: expected .factLoaded(\"nope\"), but received")
    }
    try await store.finish()
  }

  @Test("forgetting to advance the TestClock: receive says to advance it")
  func forgotToAdvance() async throws {
    let clock = TestClock()
    let store = TestStore(
      initialState: TrialSearch.State(), TrialSearch.reducer(clock: clock) { [$0] })
    store.timeout = .milliseconds(200)
    try await store.send(.queryChanged("a")) { $0.query = "a" }
    try await withKnownIssue {
      try await store.receive(.resultsLoaded(["a"])) { $0.results = ["a"] }
    } matching: { issue in
      says(issue, "on a TestClock: advance it")
    }
    await clock.advance(by: .seconds(1))
    try await store.receive(.resultsLoaded(["a"])) { $0.results = ["a"] }
    try await store.finish()
  }
}
