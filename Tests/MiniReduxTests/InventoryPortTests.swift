import Foundation
import MiniRedux
import Testing

// Inventory, a TCA feature ported to MiniRedux (#42): a navigation stack of two kinds of screens
// (a list of items and an item's detail); the detail has an edit sheet, a delete alert and a
// share sheet, and a timer that runs while it is on the stack. The feature code comes first, as
// a TCA user would write it from the docs; then the tests a TCA user would write for it.
// Dependencies are parameters of the functions that build the reducers, where TCA reads
// `@Dependency(\.continuousClock)` and `@Dependency(\.uuid)`.

private struct Item: Equatable, Identifiable {
  let id: UUID
  var name: String
  var quantity = 1
}

private enum AppFeature {
  enum Path {
    enum State: Equatable { case detail(ItemDetail.State), list(InventoryList.State) }
    enum Action: Equatable { case detail(ItemDetail.Action), list(InventoryList.Action) }

    static func reducer(
      clock: some Clock<Duration>, uuid: @escaping @MainActor () -> UUID
    ) -> Reduce<State, Action> {
      Reduce { _, _ in .none }
        .scope(State.detail, action: Action.detail, child: ItemDetail.reducer(clock: clock))
        .scope(State.list, action: Action.list, child: InventoryList.reducer(uuid: uuid))
    }
  }

  struct State: Equatable { var path = StackState<Path.State>() }
  /// `push` and `popFrom` are what TCA's `StackAction` gives: a `NavigationLink(state:)` pushes,
  /// and the stack's back button pops.
  enum Action: Equatable {
    case push(Path.State), popFrom(id: Int), popToRootButtonTapped
    case path(id: Int, Path.Action)
  }

  static func reducer(
    clock: some Clock<Duration>, uuid: @escaping @MainActor () -> UUID
  ) -> Reduce<State, Action> {
    Reduce { state, action in
      switch action {
      case .push(let screen): state.path.append(screen)
      case .popFrom(let id): state.path.pop(from: id)
      case .popToRootButtonTapped: state.path.removeAll()
      case .path(_, .detail(.delegate(.deleted(let itemID)))):
        for id in state.path.ids {
          state.path[id: id][case: Path.State.list]?.items.removeAll { $0.id == itemID }
        }
      case .path(_, .detail(.delegate(.saved(let item)))):
        for id in state.path.ids {
          let items = state.path[id: id][case: Path.State.list]?.items
          state.path[id: id][case: Path.State.list]?.items =
            items?.map { $0.id == item.id ? item : $0 } ?? []
        }
      case .path: break
      }
      return .none
    }
    .forEach(\.path, action: Action.path, child: Path.reducer(clock: clock, uuid: uuid))
  }
}

private enum InventoryList {
  struct State: Equatable { var items: [Item] = [] }
  enum Action: Equatable { case addButtonTapped }

  static func reducer(uuid: @escaping @MainActor () -> UUID) -> Reducer<State, Action> {
    { state, action in
      switch action {
      case .addButtonTapped: state.items.append(Item(id: uuid(), name: "New item"))
      }
      return .none
    }
  }
}

private enum ItemDetail {
  /// The alert is plain state, its title, from which the view builds it; its buttons' actions
  /// close it. The share sheet is plain state too, with no actions: its binding sends
  /// `sheetDismissed`, as an edit sheet swiped away does.
  enum Destination {
    enum State: Equatable { case alert(String), edit(ItemForm.State), share(String) }
    enum Action: Equatable { case alert(Alert), edit(ItemForm.Action) }
    enum Alert: Equatable { case cancelTapped, confirmDeletion }

    static let reducer = Reduce<State, Action> { _, _ in .none }
      .scope(State.alert, action: Action.alert)
      .scope(State.edit, action: Action.edit, child: ItemForm.reduce)
  }

  struct State: Equatable {
    var destination: Destination.State?
    var item: Item
    var secondsOnScreen = 0
  }
  enum Action: Equatable {
    case deleteButtonTapped, editButtonTapped, onAppear, shareButtonTapped, sheetDismissed
    case timerTicked
    case delegate(Delegate), destination(Destination.Action)
  }
  enum Delegate: Equatable { case deleted(Item.ID), saved(Item) }

  static func reducer(clock: some Clock<Duration>) -> Reduce<State, Action> {
    Reduce { state, action in
      switch action {
      case .deleteButtonTapped: state.destination = .alert("Delete \(state.item.name)?")
      case .editButtonTapped: state.destination = .edit(ItemForm.State(item: state.item))
      case .shareButtonTapped:
        state.destination = .share("\(state.item.name) × \(state.item.quantity)")
      case .sheetDismissed: state.destination = nil
      case .onAppear:
        return .run { send in
          while true {
            try await clock.sleep(for: .seconds(1))
            await send(.timerTicked)
          }
        }
      case .timerTicked: state.secondsOnScreen += 1
      case .destination(.alert(.confirmDeletion)):
        return .concatenate(.send(.delegate(.deleted(state.item.id))), .dismiss)
      case .destination(.edit(.delegate(.saved(let item)))):
        state.item = item
        return .send(.delegate(.saved(item)))
      case .delegate, .destination: break
      }
      return .none
    }
    .ifLet(\.destination, action: Action.destination, child: Destination.reducer)
  }
}

private enum ItemForm {
  struct State: Equatable { var item: Item }
  enum Action: Equatable {
    case nameChanged(String), cancelButtonTapped, saveButtonTapped
    case delegate(Delegate)
  }
  enum Delegate: Equatable { case saved(Item) }

  static func reduce(_ state: inout State, _ action: Action) -> Effect<Action> {
    switch action {
    case .nameChanged(let name): state.item.name = name
    case .cancelButtonTapped: return .dismiss
    case .saveButtonTapped: return .concatenate(.send(.delegate(.saved(state.item))), .dismiss)
    case .delegate: break
    }
    return .none
  }
}

// MARK: - Tests

@MainActor
@Suite("Inventory, ported from TCA: a stack, a sheet, an alert, a timer")
struct InventoryPortTests {
  fileprivate typealias Path = AppFeature.Path.State
  fileprivate typealias Destination = ItemDetail.Destination.State
  let clock = TestClock()
  fileprivate let apples = Item(id: UUID(0), name: "Apples", quantity: 3)
  fileprivate let pears = Item(id: UUID(1), name: "Pears")

  /// A test store whose stack starts as `path`, built in its `initialState:` so that the screens'
  /// ids count from 0, with the test's clock, and UUIDs counting from 0.
  fileprivate func makeStore(_ path: @autoclosure () -> StackState<Path> = []) -> TestStore<
    AppFeature.State, AppFeature.Action
  > {
    var next = 0
    return TestStore(
      initialState: AppFeature.State(path: path()),
      AppFeature.reducer(clock: clock) {
        defer { next += 1 }
        return UUID(next)
      })
  }

  /// A list of apples and pears, screen 0, and the apples' detail, screen 1.
  fileprivate func listAndDetail() -> StackState<Path> {
    [.list(InventoryList.State(items: [apples, pears])), .detail(ItemDetail.State(item: apples))]
  }

  @Test("add an item to the list, then open its detail: both screens pushed, in order")
  func addThenOpen() async throws {
    let store = makeStore()
    try await store.send(.push(.list(InventoryList.State()))) {
      $0.path.append(.list(InventoryList.State()))
    }
    let item = Item(id: UUID(0), name: "New item")
    try await store.send(.path(id: 0, .list(.addButtonTapped))) {
      $0.path[id: 0][case: Path.list]?.items = [item]
    }
    try await store.send(.push(.detail(ItemDetail.State(item: item)))) {
      $0.path.append(.detail(ItemDetail.State(item: item)))
    }
    #expect(store.state.path.ids == [0, 1])
    try await store.finish()
  }

  @Test("edit, then save: the sheet tells the detail, which tells the app, then it closes")
  func editThenSave() async throws {
    let store = makeStore(listAndDetail())
    try await store.send(.path(id: 1, .detail(.editButtonTapped))) {
      $0.path[id: 1][case: Path.detail]?.destination = .edit(ItemForm.State(item: apples))
    }
    try await store.send(.path(id: 1, .detail(.destination(.edit(.nameChanged("Red apples")))))) {
      $0.path[id: 1][case: Path.detail]?.destination[case: Destination.edit]?.item.name =
        "Red apples"
    }
    var edited = apples
    edited.name = "Red apples"
    try await store.send(.path(id: 1, .detail(.destination(.edit(.saveButtonTapped)))))
    try await store.receive(.path(id: 1, .detail(.destination(.edit(.delegate(.saved(edited))))))) {
      $0.path[id: 1][case: Path.detail]?.item = edited
    }
    try await store.receive(.path(id: 1, .detail(.delegate(.saved(edited))))) {
      $0.path[id: 0][case: Path.list]?.items = [edited, pears]
    }
    try await store.receiveDismiss {
      $0.path[id: 1][case: Path.detail]?.destination = nil
    }
    try await store.finish()
  }

  @Test("edit, then cancel: the sheet closes, and neither the list nor the detail changes")
  func editThenCancel() async throws {
    let store = makeStore(listAndDetail())
    try await store.send(.path(id: 1, .detail(.editButtonTapped))) {
      $0.path[id: 1][case: Path.detail]?.destination = .edit(ItemForm.State(item: apples))
    }
    try await store.send(.path(id: 1, .detail(.destination(.edit(.nameChanged("Pommes")))))) {
      $0.path[id: 1][case: Path.detail]?.destination[case: Destination.edit]?.item.name = "Pommes"
    }
    try await store.send(.path(id: 1, .detail(.destination(.edit(.cancelButtonTapped))))) {
      $0.path[id: 1][case: Path.detail]?.destination = nil
    }
    #expect(Array(store.state.path) == Array(listAndDetail()))
    try await store.finish()
  }

  @Test("delete, confirmed: the detail tells the app, which removes the item, then it is popped")
  func deleteConfirmed() async throws {
    let store = makeStore(listAndDetail())
    try await store.send(.path(id: 1, .detail(.onAppear)))
    try await store.send(.path(id: 1, .detail(.deleteButtonTapped))) {
      $0.path[id: 1][case: Path.detail]?.destination = .alert("Delete Apples?")
    }
    try await store.send(.path(id: 1, .detail(.destination(.alert(.confirmDeletion))))) {
      $0.path[id: 1][case: Path.detail]?.destination = nil
    }
    try await store.receive(.path(id: 1, .detail(.delegate(.deleted(apples.id))))) {
      $0.path[id: 0][case: Path.list]?.items = [pears]
    }
    try await store.receiveDismiss { $0.path.pop(from: 1) }
    try await store.finish()  // The detail's timer ended with it.
  }

  @Test("delete, cancelled: the alert closes and the item stays")
  func deleteCancelled() async throws {
    let store = makeStore(listAndDetail())
    try await store.send(.path(id: 1, .detail(.deleteButtonTapped))) {
      $0.path[id: 1][case: Path.detail]?.destination = .alert("Delete Apples?")
    }
    try await store.send(.path(id: 1, .detail(.destination(.alert(.cancelTapped))))) {
      $0.path[id: 1][case: Path.detail]?.destination = nil
    }
    #expect(Array(store.state.path) == Array(listAndDetail()))
    try await store.finish()
  }

  @Test("the detail's timer ticks each second while shown, and ends when the detail is popped")
  func timerEndsWhenPopped() async throws {
    let store = makeStore(listAndDetail())
    try await store.send(.path(id: 1, .detail(.onAppear)))
    await clock.advance(by: .seconds(3))
    for seconds in 1...3 {
      try await store.receive(.path(id: 1, .detail(.timerTicked))) {
        $0.path[id: 1][case: Path.detail]?.secondsOnScreen = seconds
      }
    }
    try await store.send(.popFrom(id: 1)) { $0.path.pop(from: 1) }
    await clock.advance(by: .seconds(3))
    try await store.finish()
  }

  @Test("pop to root: every screen goes, and every screen's timer ends")
  func popToRoot() async throws {
    let store = makeStore(listAndDetail() + [.detail(ItemDetail.State(item: pears))])
    try await store.send(.path(id: 1, .detail(.onAppear)))
    try await store.send(.path(id: 2, .detail(.onAppear)))
    await clock.advance(by: .seconds(1))
    try await store.receive(.path(id: 1, .detail(.timerTicked))) {
      $0.path[id: 1][case: Path.detail]?.secondsOnScreen = 1
    }
    try await store.receive(.path(id: 2, .detail(.timerTicked))) {
      $0.path[id: 2][case: Path.detail]?.secondsOnScreen = 1
    }
    try await store.send(.popToRootButtonTapped) { $0.path.removeAll() }
    await clock.advance(by: .seconds(1))
    try await store.finish()
  }

  @Test("share: the sheet shows the item's text, and its binding dismisses it")
  func share() async throws {
    let store = makeStore(listAndDetail())
    try await store.send(.path(id: 1, .detail(.shareButtonTapped))) {
      $0.path[id: 1][case: Path.detail]?.destination = .share("Apples × 3")
    }
    try await store.send(.path(id: 1, .detail(.sheetDismissed))) {
      $0.path[id: 1][case: Path.detail]?.destination = nil
    }
    try await store.finish()
  }
}

extension UUID {
  /// A UUID whose last digits are `n`, as swift-dependencies' `UUID(0)`.
  fileprivate init(_ n: Int) {
    self.init(uuidString: "00000000-0000-0000-0000-\(String(format: "%012x", n))")!
  }
}
