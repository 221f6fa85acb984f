import Testing

@testable import MiniRedux

/// Rows edited every way a reducer can, with each row's action checked against a linear search.
private enum Edited {
  struct Row: Identifiable, Equatable {
    var id: Int
    var taps = 0
  }
  enum Edit: Equatable, Sendable {
    case insert(Int, id: Int), remove(Int), replace(Int, id: Int), swap(Int, Int)
  }
  enum Action: Equatable, Sendable { case edit(Edit), row(Int, Bool) }

  static func apply(_ edit: Edit, to rows: inout [Row]) {
    switch edit {
    case .insert(let index, let id): rows.insert(Row(id: id), at: index)
    case .remove(let index): rows.remove(at: index)
    case .replace(let index, let id): rows[index] = Row(id: id)
    case .swap(let first, let second): rows.swapAt(first, second)
    }
  }

  static let reducer = Reduce<[Row], Action> { rows, action in
    if case .edit(let edit) = action { apply(edit, to: &rows) }
    return .none
  }
  .forEach(\.self, action: Action.row) { row, isTap in
    row.taps += isTap ? 1 : 0
    return isTap ? .none : .run { _ in await untilCancelled() }
  }
}

@MainActor
@Suite("Lists at any size: rows found by id as a search from the start finds them")
struct ListIndexTests {
  @Test(
    "random edits, two stores sharing one reducer: actions reach their rows, effects end with them")
  func actionsReachTheFirstRow() async {
    var random = SplitMix64(seed: 39)
    let rows = (0..<20).map { Edited.Row(id: $0) }
    var models = [rows, rows.reversed()]
    let stores = models.map { Store(asInApp: $0, Edited.reducer.reduce) }
    var (nextID, listening) = (100, [[Int: Int]](repeating: [:], count: 2))
    for step in 0..<4_000 {
      let which = random.below(2)
      var rows = models[which]
      let action: Edited.Action
      switch random.below(6) {
      case 0 where !rows.isEmpty: action = .edit(.remove(random.below(rows.count)))
      case 1 where !rows.isEmpty:
        nextID += 1
        action = .edit(.replace(random.below(rows.count), id: nextID))
      case 2 where rows.count > 1:
        action = .edit(.swap(random.below(rows.count), random.below(rows.count)))
      case 3:
        // NB: Now and then an id a row already has: an action for it must reach the first.
        let shared = !rows.isEmpty && random.chance(20)
        nextID += shared ? 0 : 1
        let id = shared ? rows[random.below(rows.count)].id : nextID
        action = .edit(.insert(random.below(rows.count + 1), id: id))
      default:
        let id = rows.isEmpty || random.chance(10) ? -1 : rows[random.below(rows.count)].id
        action = .row(id, random.chance(80))
      }
      switch action {
      case .edit(let edit): Edited.apply(edit, to: &rows)
      case .row(let id, let isTap):
        guard let index = rows.firstIndex(where: { $0.id == id }) else { break }
        if isTap { rows[index].taps += 1 } else { listening[which][id, default: 0] += 1 }
      }
      listening[which] = listening[which].filter { id, _ in rows.contains { $0.id == id } }
      let ((), reports) = await capturingReports { stores[which].send(action) }
      // NB: An id two rows share is misuse: its action reaches one of them, reported when seen.
      let isShared = rows.filter { $0.id == action.id }.count > 1
      #expect(isShared || stores[which].state == rows, "step \(step): \(action)")
      #expect(isShared || !reports.contains { $0.contains("more than one") }, "step \(step)")
      #expect(
        stores[which].snapshot.effects == listening[which].values.reduce(0, +), "step \(step)")
      models[which] = stores[which].state
      if !isShared, stores[which].state != rows { return }
    }
    for store in stores {
      while !store.state.isEmpty { store.send(.edit(.remove(0))) }
      #expect(store.snapshot.effects == 0)
    }
  }
}

@MainActor
@Suite("Lists at any size: a dictionary's values")
struct ListDictionaryTests {
  @Test("a dictionary keyed apart from its rows' ids: an action reaches the row with that id")
  func keyedApart() {
    struct State: Equatable { var rows: [Int: Edited.Row] = [0: .init(id: 1), 1: .init(id: 0)] }
    let reducer = Reduce<State, Edited.Action> { _, _ in .none }
      .forEach(\.rows.values, action: Edited.Action.row) { row, isTap in
        row.taps += isTap ? 1 : 0
        return .none
      }
    let store = Store(initialState: State(), reducer.reduce)
    store.send(.row(1, true))
    #expect(store.state.rows[0]?.taps == 1)
    #expect(store.state.rows[1]?.taps == 0)
  }
}

/// One reducer value embedded in two places: two lists whose rows share one index of ids.
private enum TwoLists {
  struct State: Equatable {
    var left = (0..<40).map { Edited.Row(id: $0) }, right = (100..<140).map { Edited.Row(id: $0) }
  }
  enum Action: Equatable, Sendable { case left(Edited.Action), right(Edited.Action), reverse }
  static let list = Reduce<[Edited.Row], Edited.Action> { rows, action in
    if case .edit(let edit) = action { Edited.apply(edit, to: &rows) }
    return .none
  }
  .forEach(\.self, action: Edited.Action.row) { _, _ in .run { _ in await untilCancelled() } }
  static let reducer = Reduce<State, Action> { state, action in
    if action == .reverse {
      (state.left, state.right) = (state.left.reversed(), state.right.reversed())
    }
    return .none
  }
  .scope(\.left, action: Action.left, child: list)
  .scope(\.right, action: Action.right, child: list)
}

@MainActor
@Suite("Lists at any size: one reducer in two places")
struct ListSharedIndexTests {
  @Test("two lists of one forEach value, both moved in one send: every row's effect stays")
  func sharedIndex() async {
    let store = Store(initialState: TwoLists.State(), TwoLists.reducer.reduce)
    for id in 0..<40 { store.send(.left(.row(id, false))) }
    for id in 100..<140 { store.send(.right(.row(id, false))) }
    #expect(store.snapshot.effects == 80)
    store.send(.reverse)
    #expect(store.snapshot.effects == 80)
    store.send(.left(.edit(.remove(0))))
    #expect(store.snapshot.effects == 79)
    while !store.state.left.isEmpty { store.send(.left(.edit(.remove(0)))) }
    while !store.state.right.isEmpty { store.send(.right(.edit(.remove(0)))) }
    #expect(store.snapshot.effects == 0)
  }
}

/// A row that counts the reads of its id: a pass over the rows reads each row's.
private struct Counted: Identifiable, Equatable {
  nonisolated(unsafe) static var idReads = 0  // NB: Sound: read and written on the main actor.
  let key: Int
  var id: Int { (Self.idReads += 1, key).1 }
}

extension ListSharedIndexTests {
  @Test("two stores of one forEach value, their rows' actions alternating: no pass over the rows")
  func alternatingLists() {
    let reducer = Reduce<[Counted], (Int, Void)> { _, _ in .none }
      .forEach(\.self, action: { ($0, $1) }, extract: { $0 }) { _, _ in .none }
    let (left, right) = (
      Store(initialState: (0..<1_000).map(Counted.init), reducer),
      Store(initialState: (1_000..<2_000).map(Counted.init), reducer)
    )
    left.send((0, ()))
    right.send((1_000, ()))  // Each list passed over once, to learn its rows.
    Counted.idReads = 0
    for id in 1..<100 {
      left.send((id, ()))
      right.send((1_000 + id, ()))
    }
    #expect(Counted.idReads < 1_000)  // A lookup reads a row's id or two; a pass, 1,000.
  }
}

/// A collection whose `Int` indices skip the empty slots: an `Int` in its range is not an index.
private struct Slots: MutableCollection {
  var slots: [Edited.Row?]
  var startIndex: Int { slots.firstIndex { $0 != nil } ?? slots.count }
  var endIndex: Int { slots.count }
  func index(after i: Int) -> Int { slots[(i + 1)...].firstIndex { $0 != nil } ?? slots.count }
  subscript(i: Int) -> Edited.Row {
    get { slots[i]! }
    set { slots[i] = newValue }
  }
}

@MainActor
@Suite("Lists at any size: indices that are not a range")
struct ListSparseIndexTests {
  @Test("a row of a collection with sparse Int indices leaves: its effect ends, its action drops")
  func sparseIndices() async {
    let reducer = Reduce<Slots, Edited.Action> { rows, action in
      if case .edit(.remove(let index)) = action { rows.slots[index] = nil }
      return .none
    }
    .forEach(\.self, action: Edited.Action.row) { _, isTap in
      isTap ? .none : .run { _ in await untilCancelled() }
    }
    let store = Store(
      initialState: Slots(slots: (0..<3).map { Edited.Row(id: $0) }), reducer.reduce)
    store.send(.row(1, false))
    #expect(store.snapshot.effects == 1)
    store.send(.edit(.remove(1)))
    #expect(store.snapshot.effects == 0)
    let ((), reports) = await capturingReports { store.send(.row(1, true)) }
    #expect(reports.count == 1)
  }
}

extension Edited.Action {
  fileprivate var id: Int? { if case .row(let id, _) = self { id } else { nil } }
}
