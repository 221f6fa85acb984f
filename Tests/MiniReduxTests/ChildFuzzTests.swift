import Foundation
import Testing

@testable import MiniRedux

// A differential fuzzer of child features: random programs over a parent with a sheet (`ifLet`),
// an enum destination (`ifLet` of `scope(Dest.a, ...)` and `scope(Dest.b, ...)`), rows
// (`forEach`) and a `StackState` path, run on a `Store` and on a model written from the docs
// (Guarantees, NavigationAndChildFeatures, EffectsAndCancellation). Each child's reducer returns
// an effect made from a random spec: `.run`s held on gates the test opens one at a time, `.send`,
// `cancellable` under ids the parent uses too, `.cancel(id:)`, `merge`, `concatenate`, `.dismiss`
// and `send.dismiss()`. The parent adds, removes and replaces children and cancels ids. The traces
// compared: the actions reduced, in order; which runs wait on their gates after each step, and
// whether each woke cancelled; MiniRedux's reports; the final state; each send's `isCancelled`.
//
// Each child also has a child of its own (`ifLet`) and a part (`scope`); parents react to their
// children's actions (remove, replace by the same `id` or another, run or cancel under an id the
// children use too); children give themselves another `id`; the test cancels sends' tasks. Waits
// are deterministic: one gate opens at a time, then `TestClock.advance()` lets the store's effects
// (run on its test executor, which a warm-up sleep hands the clock) run until they wait again.
// Some sends go through stores scoped to a child, or to its own child, made while it is there and
// kept after it went; after each step the traces show their states and, for each send's task,
// whether `finish()` would wait and what `isCancelled` reads. Specs `debounce` on a clock of their
// own, each for a duration of its own, which a step advances past every pause, so that the pauses
// it ends end in a known order.
// The model follows the docs; `ChildFuzzBugTests` pins each bug the fuzzer found, now fixed.

// MARK: - Programs

/// A small deterministic generator (a linear congruential one), as the older effect fuzzer's.
struct ChildFuzzRng {
  var state: UInt64
  mutating func next(_ bound: Int) -> Int {
    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    return Int((state >> 33) % UInt64(bound))
  }
}

/// What a `.run` does once its gate opens.
enum FuzzRun: Equatable, Sendable {
  case send(Int), nothing, dismiss, sendThenDismiss(Int)
  /// The parent's run: it sends `.op(.tick(gate))`.
  case tick
}

/// An effect a reducer returns, as data: built into an `Effect` by the store's reducers, and into
/// a model effect by the model.
indirect enum FuzzSpec: Equatable, Sendable {
  case none, send(Int), run(FuzzRun), cancel(Int), dismiss
  case cancellable(Int, inFlight: Bool, FuzzSpec)
  case merge([FuzzSpec]), concatenate([FuzzSpec])
  /// `debounce(id:for:clock:)` on the debounce clock, for a duration of its own.
  case debounce(Int, FuzzSpec)
}

/// The parent's own actions.
enum FuzzOp: Equatable, Sendable, CustomStringConvertible {
  case showSheet(Int), sheetNil, destA(Int), destB(Int), destNil
  case addRow(Int), removeRow(Int), replaceRow(Int)
  case push(Int), popLast, popScreen(Int), replaceScreen(Int)
  case reverseRows, insertRow(Int), reversePath
  case cancel(Int), run(Int, inFlight: Bool), tick(Int)
  case warm

  var description: String {
    switch self {
    case .showSheet(let id): "showSheet(\(id))"
    case .sheetNil: "sheetNil"
    case .destA(let id): "destA(\(id))"
    case .destB(let id): "destB(\(id))"
    case .destNil: "destNil"
    case .addRow(let id): "addRow(\(id))"
    case .removeRow(let id): "removeRow(\(id))"
    case .replaceRow(let id): "replaceRow(\(id))"
    case .push(let id): "push(\(id))"
    case .popLast: "popLast"
    case .popScreen(let id): "popScreen(\(id))"
    case .replaceScreen(let id): "replaceScreen(\(id))"
    case .cancel(let id): "cancel(\(id))"
    case .run(let id, let inFlight): "run(\(id),\(inFlight))"
    case .tick(let gate): "tick(\(gate))"
    case .warm: "warm"
    case .reverseRows: "reverseRows"
    case .insertRow(let id): "insertRow(\(id))"
    case .reversePath: "reversePath"
    }
  }
}

/// Where a child is: a path screen is named by the `id` of its state, given as it is pushed.
enum FuzzKind: String, Hashable, Sendable {
  case sheet = "S", destA = "A", destB = "B", row = "R", path = "P"
}

/// A child: its place and its `id` (for the sheet and the destination, the state's `id`); with
/// `inner`, the child's own child of that `id`.
struct FuzzWho: Hashable, CustomStringConvertible {
  var kind: FuzzKind
  var id: Int
  var inner: Int?
  /// Its part, embedded with `scope`: it shares the child's ids and place.
  var part = false
  var description: String { "\(kind.rawValue)\(id)" + (inner.map { ">i\($0)" } ?? "") }
  /// The child, without its inner child.
  var outer: FuzzWho { FuzzWho(kind: kind, id: id) }
  /// The children whose ids it uses, outermost first: its own `.cancel(id:)` reaches the last's.
  var levels: [FuzzWho] { inner == nil ? [self] : [outer, self] }
}

/// A step of a program: an action for a child (`id` names a row or a screen), a parent's
/// action, or opening the gate of a run that waits on it.
enum FuzzStep: Equatable, CustomStringConvertible {
  case child(FuzzKind, id: Int, FuzzKidAction)
  case op(FuzzOp)
  case open(Int)
  /// `cancel()` on the task of the root send of that index.
  case cancelTask(Int)
  /// A send through a store scoped to that child, made the first time (`scope(state:action:)` to
  /// optional state) while the child is there, and kept: after the child went, it is stale.
  case scoped(FuzzKind, id: Int, FuzzKidAction)
  /// `.act(k)` through a store scoped to the child's own child, from the child's scoped store.
  case scopedInner(FuzzKind, id: Int, Int)
  /// Advances the debounce clock past every debounce's pause.
  case advanceClock

  var description: String {
    switch self {
    case .child(let kind, let id, let action): ".child(.\(kind), id: \(id), .\(action))"
    case .op(let op): ".op(.\(op))"
    case .open(let gate): ".open(\(gate))"
    case .cancelTask(let index): ".cancelTask(\(index))"
    case .scoped(let kind, let id, let action): ".scoped(.\(kind), id: \(id), .\(action))"
    case .scopedInner(let kind, let id, let k): ".scopedInner(.\(kind), id: \(id), \(k))"
    case .advanceClock: ".advanceClock"
    }
  }
}

/// What a parent does when it reduces its child's `.act(k)`, after the child: the sheet's,
/// destination's, row's or screen's parent, or a child whose own child sent it.
enum FuzzReaction: Equatable, Sendable {
  case none
  /// Removes the child: `nil`, the row or exactly that screen.
  case remove
  /// Replaces the child with a new one of the same `id`.
  case replace
  /// Replaces the child with another: another `id`, or the destination's other case.
  case other
  /// Returns `.run` on a gate, sending a tick, under that id.
  case run(Int, inFlight: Bool)
  case cancel(Int)
}

struct FuzzProgram {
  var specs: [FuzzSpec]
  var reactions: [FuzzReaction]
  var steps: [FuzzStep]
}

// MARK: - The store under test

/// A child's state: its `id`, how many of its actions it reduced, and a child of its own.
struct FuzzKid: Equatable, Identifiable, Sendable {
  var id: Int
  var n = 0
  var inner: FuzzInner?
  var part = FuzzInner(id: 0)
}
struct FuzzInner: Equatable, Identifiable, Sendable {
  var id: Int
  var n = 0
}
enum FuzzInnerAction: Equatable, Sendable { case act(Int) }
enum FuzzKidAction: Equatable, Sendable {
  case act(Int), inner(FuzzInnerAction), part(FuzzInnerAction), showInner(Int), innerNil
  case tick(Int)
  /// Gives the child another `id`, and returns the effect of `.act(k)`.
  case setID(Int, Int)
}
enum FuzzDest: Equatable, Sendable {
  case a(FuzzKid), b(FuzzKid)
}
enum FuzzDestAction: Equatable, Sendable {
  case a(FuzzKidAction), b(FuzzKidAction)
}
struct FuzzParent: Equatable {
  var sheet: FuzzKid?
  var dest: FuzzDest?
  var rows: [FuzzKid] = []
  var path = StackState<FuzzKid>()
}
enum FuzzAction: Equatable, Sendable {
  case sheet(FuzzKidAction), dest(FuzzDestAction)
  case row(id: Int, FuzzKidAction), path(id: Int, FuzzKidAction)
  case op(FuzzOp)
}

/// The store's side of a run: its reducers build effects from the specs, with a new gate for
/// each `.run`, and write what they reduce to `trace`.
@MainActor final class FuzzHarness {
  let specs: [FuzzSpec]
  let reactions: [FuzzReaction]
  let trace = Recorder<String>()
  var gates: [Gate] = []
  let clock = TestClock()
  /// The debounces' clock, and how many debounces were built: each pauses for a duration of its
  /// own, so that those a step wakes wake in an order known.
  let debounceClock = TestClock()
  var pauses = 0

  init(specs: [FuzzSpec], reactions: [FuzzReaction]) {
    (self.specs, self.reactions) = (specs, reactions)
  }

  func reaction(_ k: Int) -> FuzzReaction { k < reactions.count ? reactions[k] : .none }

  /// The effect of a reaction: a run that ticks, or a cancel.
  func effect<A: Sendable>(of reaction: FuzzReaction, _ tick: @escaping @Sendable (Int) -> A)
    -> Effect<A>
  {
    switch reaction {
    case .run(let id, let inFlight):
      let ((number, gate), trace) = (self.gate(), trace)
      return .run { send in
        await gate.wait()
        trace.append("W\(number)\(Task.isCancelled ? "x" : "")")
        await send(tick(number))
      }
      .cancellable(id: id, cancelInFlight: inFlight)
    case .cancel(let id): return .cancel(id: id)
    case .none, .remove, .replace, .other: return .none
    }
  }

  func gate() -> (Int, Gate) {
    gates.append(Gate())
    return (gates.count - 1, gates[gates.count - 1])
  }

  func build<A: Sendable>(_ spec: FuzzSpec, _ act: @escaping @Sendable (Int) -> A) -> Effect<A> {
    switch spec {
    case .none: return .none
    case .send(let k): return .send(act(k))
    case .run(let run):
      let ((number, gate), trace) = (self.gate(), trace)
      return .run { send in
        await gate.wait()
        trace.append("W\(number)\(Task.isCancelled ? "x" : "")")
        switch run {
        case .send(let k): await send(act(k))
        case .nothing, .tick: break
        case .dismiss: await send.dismiss()
        case .sendThenDismiss(let k):
          await send(act(k))
          await send.dismiss()
        }
      }
    case .cancel(let id): return .cancel(id: id)
    case .dismiss: return .dismiss
    case .cancellable(let id, let inFlight, let inner):
      return build(inner, act).cancellable(id: id, cancelInFlight: inFlight)
    case .merge(let parts): return .merge(parts.map { build($0, act) })
    case .concatenate(let parts): return .concatenate(parts.map { build($0, act) })
    case .debounce(let id, let inner):
      let effect = build(inner, act)
      pauses += 1
      return effect.debounce(id: id, for: .milliseconds(pauses), clock: debounceClock)
    }
  }

  func kid(_ kind: FuzzKind) -> Reduce<FuzzKid, FuzzKidAction> {
    Reduce<FuzzKid, FuzzKidAction> { [unowned self] state, action in
      let who = "\(kind.rawValue)\(state.id)"
      switch action {
      case .act(let k):
        state.n += 1
        trace.append("\(who):\(k)")
        return k < specs.count ? build(specs[k]) { .act($0) } : .none
      case .inner(.act(let k)):
        trace.append("\(who)>")
        let reaction = reaction(k)
        guard reaction != .none else { return .none }
        trace.append("kre:\(reaction)")
        if reaction == .remove { state.inner = nil }
        if reaction == .replace { state.inner = state.inner.map { FuzzInner(id: $0.id) } }
        if reaction == .other { state.inner = state.inner.map { FuzzInner(id: ($0.id + 1) % 2) } }
        return effect(of: reaction) { .tick($0) }
      case .tick(let number): trace.append("\(who):tick\(number)")
      case .part: trace.append("\(who)<")
      case .showInner(let id):
        trace.append("\(who):show\(id)")
        state.inner = FuzzInner(id: id)
      case .innerNil:
        trace.append("\(who):innerNil")
        state.inner = nil
      case .setID(let id, let k):
        trace.append("\(who):id\(id),\(k)")
        (state.id, state.n) = (id, state.n + 1)
        return k < specs.count ? build(specs[k]) { .act($0) } : .none
      }
      return .none
    }
    .ifLet(\.inner, action: FuzzKidAction.inner) { [unowned self] state, action in
      guard case .act(let k) = action else { return .none }
      state.n += 1
      trace.append("i\(state.id):\(k)")
      return k < specs.count ? build(specs[k]) { .act($0) } : .none
    }
    .scope(\.part, action: FuzzKidAction.part) { [unowned self] state, action in
      guard case .act(let k) = action else { return .none }
      state.n += 1
      trace.append("p:\(k)")
      return k < specs.count ? build(specs[k]) { .act($0) } : .none
    }
  }

  func reducer() -> Reduce<FuzzParent, FuzzAction> {
    Reduce<FuzzParent, FuzzAction> { [unowned self] state, action in
      let k: Int
      switch action {
      case .op: k = -1
      case .sheet(.act(let act)), .dest(.a(.act(let act))), .dest(.b(.act(let act))),
        .row(_, .act(let act)), .path(_, .act(let act)):
        k = act
      default: return .none
      }
      guard case .op(let op) = action else {
        let reaction = reaction(k)
        guard reaction != .none else { return .none }
        trace.append("re:\(reaction)")
        switch (reaction, action) {
        case (.remove, .sheet): state.sheet = nil
        case (.remove, .dest): state.dest = nil
        case (.remove, .row(let id, _)): state.rows.removeAll { $0.id == id }
        case (.remove, .path(let id, _)): state.path[id: id] = nil
        case (.replace, .sheet): state.sheet = state.sheet.map { FuzzKid(id: $0.id) }
        case (.replace, .dest(.a)):
          if case .a(let kid) = state.dest { state.dest = .a(FuzzKid(id: kid.id)) }
        case (.replace, .dest(.b)):
          if case .b(let kid) = state.dest { state.dest = .b(FuzzKid(id: kid.id)) }
        case (.replace, .row(let id, _)):
          if let index = state.rows.firstIndex(where: { $0.id == id }) {
            state.rows[index] = FuzzKid(id: id)
          }
        case (.replace, .path(let id, _)):
          state.path[id: id] = state.path[id: id].map { FuzzKid(id: $0.id) }
        case (.other, .sheet): state.sheet = state.sheet.map { FuzzKid(id: ($0.id + 1) % 3) }
        case (.other, .dest(.a)):
          if case .a(let kid) = state.dest { state.dest = .b(FuzzKid(id: kid.id)) }
        case (.other, .dest(.b)):
          if case .b(let kid) = state.dest { state.dest = .a(FuzzKid(id: kid.id)) }
        case (.other, .row(let id, _)):
          let free = (0..<5).first { id in !state.rows.contains { $0.id == id } }
          if let index = state.rows.firstIndex(where: { $0.id == id }), let free {
            state.rows[index] = FuzzKid(id: free)
          }
        default: break
        }
        return effect(of: reaction) { .op(.tick($0)) }
      }
      if op != .warm { trace.append("op:\(op)") }
      switch op {
      case .showSheet(let id): state.sheet = FuzzKid(id: id)
      case .sheetNil: state.sheet = nil
      case .destA(let id): state.dest = .a(FuzzKid(id: id))
      case .destB(let id): state.dest = .b(FuzzKid(id: id))
      case .destNil: state.dest = nil
      case .addRow(let id): state.rows.append(FuzzKid(id: id))
      case .removeRow(let id): state.rows.removeAll { $0.id == id }
      case .replaceRow(let id):
        if let index = state.rows.firstIndex(where: { $0.id == id }) {
          state.rows[index] = FuzzKid(id: id)
        }
      case .push(let id): state.path.append(FuzzKid(id: id))
      case .reverseRows: state.rows.reverse()
      case .insertRow(let id): state.rows.insert(FuzzKid(id: id), at: 0)
      case .reversePath: state.path.reverse()
      case .popLast: if !state.path.isEmpty { state.path.removeLast() }
      case .popScreen(let id):
        if let index = state.path.firstIndex(where: { $0.id == id }) {
          state.path[id: state.path.ids[index]] = nil
        }
      case .replaceScreen(let id):
        if let index = state.path.firstIndex(where: { $0.id == id }) {
          state.path[index] = FuzzKid(id: id)
        }
      case .cancel(let id): return .cancel(id: id)
      case .run(let id, let inFlight):
        let ((number, gate), trace) = (self.gate(), trace)
        return .run { send in
          await gate.wait()
          trace.append("W\(number)\(Task.isCancelled ? "x" : "")")
          await send(.op(.tick(number)))
        }
        .cancellable(id: id, cancelInFlight: inFlight)
      case .tick: break
      case .warm:
        // NB: Puts the store's effects' executor in the clock's hands, so that `advance()` waits
        // for them: the test's deterministic wait.
        let (clock, debounceClock) = (clock, debounceClock)
        return .run { _ in
          try? await clock.sleep(for: .zero)
          try? await debounceClock.sleep(for: .zero)
        }
      }
      return .none
    }
    .ifLet(\.sheet, action: FuzzAction.sheet, child: kid(.sheet))
    .ifLet(
      \.dest, action: FuzzAction.dest,
      child: Reduce<FuzzDest, FuzzDestAction> { _, _ in .none }
        .scope(FuzzDest.a, action: FuzzDestAction.a, child: kid(.destA))
        .scope(FuzzDest.b, action: FuzzDestAction.b, child: kid(.destB))
    )
    .forEach(\.rows, action: FuzzAction.row, child: kid(.row))
    .forEach(\.path, action: FuzzAction.path, child: kid(.path))
  }

  /// Runs `program` on a store; returns its trace.
  func run(_ program: FuzzProgram) async -> [String] {
    let store = Store(initialState: FuzzParent(), reducer())
    let trace = trace
    await miniReduxReporter.withValue(reporter { trace.append(fuzzReport($0)) }) {
      store.send(.op(.warm))
      await settle()
      await debounceClock.advance()
      await settle()
      var tasks: [StoreTask] = []
      for step in program.steps {
        switch step {
        case .open(let number):
          if number < gates.count, gates[number].waiterCount > 0 { gates[number].open() }
        case .op(let op): tasks.append(store.send(.op(op)))
        case .child(let kind, let id, let action):
          tasks.append(store.send(self.action(kind, id, action, store.state)))
        case .cancelTask(let index): if index < tasks.count { tasks[index].cancel() }
        case .advanceClock: await debounceClock.advance(by: .seconds(1000))
        case .scoped(let kind, let id, let action):
          let key = fuzzScopeKey(kind, id)
          if let scoped = scopes.first(where: { $0.key == key })?.store {
            tasks.append(scoped.send(action))
          } else if let scoped = scope(store, kind, id) {
            scopes.append((key, scoped))
            tasks.append(scoped.send(action))
          } else {
            trace.append("noscope")
          }
        case .scopedInner(let kind, let id, let k):
          let key = fuzzScopeKey(kind, id)
          var outer = scopes.first { $0.key == key }?.store
          if outer == nil, let made = scope(store, kind, id) {
            (outer, scopes) = (made, scopes + [(key, made)])
          }
          if let scoped = inners.first(where: { $0.key == key })?.store {
            tasks.append(scoped.send(.act(k)))
          } else if let scoped = outer?.scope(state: \.inner, action: FuzzKidAction.inner) {
            inners.append((key, scoped))
            tasks.append(scoped.send(.act(k)))
          } else {
            trace.append("noscope")
          }
        }
        await settle()
        trace.append("wait:\(waiting())")
        traceScopes(tasks)
      }
      // Opens every gate a run waits on, the oldest first, and ends the debounces' pauses, until
      // nothing runs.
      for _ in 0..<1000 {
        if let number = gates.indices.first(where: { gates[$0].waiterCount > 0 }) {
          gates[number].open()
        } else if tasks.contains(where: { $0.count > 0 }) {
          await debounceClock.advance(by: .seconds(1000))
          trace.append("clock")
        } else {
          break
        }
        await settle()
        trace.append("wait:\(waiting())")
      }
      await finished(tasks)
      trace.append("state:\(describe(store.state))")
      trace.append("cancelled:\(tasks.map { $0.isCancelled ? "1" : "0" }.joined())")
    }
    return trace.values
  }

  func waiting() -> [Int] { gates.indices.filter { gates[$0].waiterCount > 0 } }

  /// Writes the scoped stores' states and the sends' tasks to the trace.
  func traceScopes(_ tasks: [StoreTask]) {
    trace.append("scoped:" + scopes.map { "\($0.key)=\(fuzzDescribe($0.store.state))" }.joined())
    trace.append("inner:" + inners.map { "\($0.key)=\(fuzzDescribe($0.store.state))" }.joined())
    trace.append("tasks:" + tasks.map(fuzzDescribe).joined())
  }

  /// The stores scoped to children, in the order they were made.
  var scopes: [(key: String, store: Store<FuzzKid, FuzzKidAction>)] = []
  /// The stores scoped to a child's own child, from the child's scoped store.
  var inners: [(key: String, store: Store<FuzzInner, FuzzInnerAction>)] = []

  /// A store scoped to the child, if it is there: the sheet or the destination's case whatever
  /// its `id`, a row by its `id`, a screen by the stack's id of the screen whose `id` that is.
  func scope(_ store: Store<FuzzParent, FuzzAction>, _ kind: FuzzKind, _ id: Int)
    -> Store<FuzzKid, FuzzKidAction>?
  {
    switch kind {
    case .sheet: return store.scope(state: \.sheet, action: FuzzAction.sheet)
    case .destA:
      return store.scope(
        state: { if case .a(let kid) = $0.dest { kid } else { nil } },
        action: { FuzzAction.dest(.a($0)) })
    case .destB:
      return store.scope(
        state: { if case .b(let kid) = $0.dest { kid } else { nil } },
        action: { FuzzAction.dest(.b($0)) })
    case .row:
      return store.scope(
        state: { $0.rows.first { $0.id == id } }, action: { FuzzAction.row(id: id, $0) })
    case .path:
      guard let index = store.state.path.firstIndex(where: { $0.id == id }) else { return nil }
      let screen = store.state.path.ids[index]
      return store.scope(state: { $0.path[id: screen] }, action: { .path(id: screen, $0) })
    }
  }

  func settle() async {
    await clock.advance()
    for _ in 0..<3 { await Task.yield() }
  }

  func action(_ kind: FuzzKind, _ id: Int, _ action: FuzzKidAction, _ state: FuzzParent)
    -> FuzzAction
  {
    switch kind {
    case .sheet: .sheet(action)
    case .destA: .dest(.a(action))
    case .destB: .dest(.b(action))
    case .row: .row(id: id, action)
    case .path:
      .path(id: state.path.firstIndex { $0.id == id }.map { state.path.ids[$0] } ?? -1, action)
    }
  }

  func describe(_ state: FuzzParent) -> String {
    let dest: (String, FuzzKid)? =
      switch state.dest {
      case nil: nil
      case .a(let kid): ("a", kid)
      case .b(let kid): ("b", kid)
      }
    return fuzzDescribe(state.sheet, dest, state.rows, Array(state.path))
  }
}

/// The parent's state, as the traces show it.
func fuzzDescribe(
  _ sheet: FuzzKid?, _ dest: (String, FuzzKid)?, _ rows: [FuzzKid], _ path: [FuzzKid]
) -> String {
  let kid: (FuzzKid) -> String = fuzzDescribe
  let (rows, path) = (rows.map(kid).joined(separator: ","), path.map(kid).joined(separator: ","))
  return "sheet=\(sheet.map(kid) ?? "nil") dest=\(dest.map { $0.0 + kid($0.1) } ?? "nil") "
    + "rows=[\(rows)] path=[\(path)]"
}

/// A child's state, as the traces show it.
func fuzzDescribe(_ kid: FuzzKid) -> String {
  "\(kid.id).\(kid.n)" + (kid.inner.map { "(i\($0.id).\($0.n))" } ?? "") + "p\(kid.part.n)"
}

/// A child's own child's state, as the traces show it.
func fuzzDescribe(_ inner: FuzzInner) -> String { "i\(inner.id).\(inner.n)" }

/// The key of a store scoped to a child.
func fuzzScopeKey(_ kind: FuzzKind, _ id: Int) -> String {
  kind == .row || kind == .path ? "\(kind.rawValue)\(id)" : kind.rawValue
}

/// A send's task, as the traces show it: whether `finish()` would wait for effects of it
/// (upper case) and whether it reads `isCancelled`.
@MainActor func fuzzDescribe(_ task: StoreTask) -> String {
  fuzzTask(pending: task.count > 0, cancelled: task.isCancelled)
}
func fuzzTask(pending: Bool, cancelled: Bool) -> String {
  pending ? (cancelled ? "X" : "P") : (cancelled ? "x" : ".")
}

/// A report, as the traces name it.
func fuzzReport(_ message: String) -> String {
  if message.hasPrefix("MiniRedux: dropped") { return "!drop" }
  if message.contains("returned .dismiss with other effects") { return "!dismissWith" }
  if message.contains(".dismiss") && message.contains("did nothing") { return "!dismissNothing" }
  return "!other:" + message.prefix(80)
}

// MARK: - The model

/// An effect as the model runs it: ids are names, a child's own prefixed with the child.
indirect enum ModelEffect {
  case none, send(Int), run(Int, FuzzRun), cancel(String), dismiss
  /// A debounce's pause, of that number.
  case pause(Int)
  case cancellable(String, inFlight: Bool, ModelEffect)
  /// The effects of another child than the one around, as a parent's reaction in its child's.
  case owned(FuzzWho, ModelEffect)
  case merge([ModelEffect]), concatenate([ModelEffect])

  var isNone: Bool { if case .none = self { true } else { false } }

  /// As `Effect.merge` and `Effect.concatenate` build them: `.none`s left out, one part alone.
  static func composite(_ parts: [Self], _ make: ([Self]) -> Self) -> Self {
    let parts = parts.filter { !$0.isNone }
    return parts.count > 1 ? make(parts) : parts.first ?? .none
  }

  /// Whether it removes its child as it starts: a `.dismiss` alone, in a merge, or a first step.
  var dismissesAtOnce: Bool {
    switch self {
    case .dismiss: true
    case .cancellable(_, _, let inner): inner.dismissesAtOnce
    case .concatenate(let parts): parts[0].dismissesAtOnce
    case .merge(let parts): parts.contains { $0.dismissesAtOnce }
    default: false
    }
  }

  /// Whether it is a `.dismiss`, under ids or not: a dismissal with nothing else to report.
  var isDismissAlone: Bool {
    switch self {
    case .dismiss: true
    case .cancellable(_, _, let inner): inner.isDismissAlone
    default: false
    }
  }
}

/// An effect in flight in the model: a run, a concatenation (`steps`), or a merge (`isGroup`).
final class ModelNode {
  enum Phase: Comparable { case starting, running, cancelled, finished, unwound }
  let isGroup: Bool
  let run: (gate: Int, kind: FuzzRun)?
  var steps: [ModelEffect]?
  let names: [String]
  var parent: ModelNode?
  var children: [ModelNode] = []
  var phase: Phase
  let lineage: Int
  let owner: FuzzWho?
  let depth: Int
  /// The number of the debounce whose pause it is.
  var pause: Int?
  var isRunning: Bool { phase <= .running }
  var isRegistered: Bool { phase <= .running }

  init(
    isGroup: Bool = false, run: (Int, FuzzRun)? = nil, steps: [ModelEffect]? = nil,
    names: [String], parent: ModelNode?, lineage: Int, owner: FuzzWho?
  ) {
    (self.isGroup, self.run, self.steps, self.names) = (isGroup, run, steps, names)
    (self.parent, self.lineage, self.owner) = (parent, lineage, owner)
    phase = isGroup ? .starting : .running
    depth = (parent?.depth ?? -1) + 1
    parent?.children.append(self)
  }

  /// Cancels it, unless it has ended or was cancelled; whether it was running.
  func cancel() -> Bool {
    guard phase <= .running else { return false }
    phase = .cancelled
    return true
  }
}

/// What the docs say a store does with the fuzzer's parent and children.
@MainActor final class FuzzModel {
  let specs: [FuzzSpec]
  var trace: [String] = []
  var sheet: FuzzKid?
  var dest: (kind: FuzzKind, kid: FuzzKid)?
  var rows: [FuzzKid] = []
  var path: [FuzzKid] = []
  var alive: [ModelNode] = []
  var nodes: [ModelNode] = []
  var waiting: [Int: ModelNode] = [:]
  var nextGate = 0
  var queue: [(FuzzStep, Int)] = []
  var toAdvance: [ModelNode] = []
  var isSending = false
  /// Whether a pause cancelled while a run's send is reduced ends before that run goes on.
  var pausesFirst = true
  var lineages = 0
  var finishedOne: Set<Int> = []
  var cancelledLineages: Set<Int> = []
  var places: [String: FuzzWho] = [:]
  /// The stores scoped to children, in the order they were made, each with the state it last saw.
  var scopes: [(key: String, kind: FuzzKind, id: Int, last: FuzzKid)] = []
  /// The stores scoped to a child's own child, from the child's scoped store, by its key.
  var inners: [(key: String, last: FuzzInner)] = []

  /// A scoped store's state: its child's, while it is there; else the last it saw.
  func scoped(_ key: String) -> FuzzKid? {
    guard let scope = scopes.first(where: { $0.key == key }) else { return nil }
    return present(scope.kind, scope.id).flatMap(kid) ?? scope.last
  }

  /// Makes the store scoped to a child, if it is not made and the child is there; whether it is.
  func makeScope(_ kind: FuzzKind, _ id: Int) -> Bool {
    let key = fuzzScopeKey(kind, id)
    if scopes.contains(where: { $0.key == key }) { return true }
    guard let who = present(kind, id), let kid = kid(who) else { return false }
    scopes.append((key, kind, id, kid))
    return true
  }

  let reactions: [FuzzReaction]
  init(specs: [FuzzSpec], reactions: [FuzzReaction]) {
    (self.specs, self.reactions) = (specs, reactions)
  }

  /// The effect of a reaction of `owner` (`nil`: the root parent): a run that ticks, or a cancel.
  func effect(of reaction: FuzzReaction, _ owner: FuzzWho?) -> ModelEffect {
    switch reaction {
    case .run(let id, let inFlight): make(.cancellable(id, inFlight: inFlight, .run(.tick)), owner)
    case .cancel(let id): make(.cancel(id), owner)
    case .none, .remove, .replace, .other: .none
    }
  }

  // MARK: Children

  /// The child an action for `kind` (and `id`, for a row or a screen) goes to, if there.
  func present(_ kind: FuzzKind, _ id: Int) -> FuzzWho? {
    switch kind {
    case .sheet: return sheet.map { FuzzWho(kind: .sheet, id: $0.id) }
    case .destA, .destB:
      guard let dest, dest.kind == kind else { return nil }
      return FuzzWho(kind: kind, id: dest.kid.id)
    case .row: return rows.contains { $0.id == id } ? FuzzWho(kind: .row, id: id) : nil
    case .path: return path.contains { $0.id == id } ? FuzzWho(kind: .path, id: id) : nil
    }
  }

  /// The state of a child that is there.
  func kid(_ who: FuzzWho) -> FuzzKid? {
    guard present(who.kind, who.id) == who.outer else { return nil }
    switch who.kind {
    case .sheet: return sheet
    case .destA, .destB: return dest?.kid
    case .row: return rows.first { $0.id == who.id }
    case .path: return path.first { $0.id == who.id }
    }
  }

  /// Changes a child that is there.
  func modify(_ who: FuzzWho, _ change: (inout FuzzKid) -> Void) {
    guard present(who.kind, who.id) == who.outer else { return }
    switch who.kind {
    case .sheet: change(&sheet!)
    case .destA, .destB: change(&dest!.kid)
    case .row: change(&rows[rows.firstIndex { $0.id == who.id }!])
    case .path: change(&path[path.firstIndex { $0.id == who.id }!])
    }
  }

  func isThere(_ who: FuzzWho) -> Bool {
    guard let kid = kid(who) else { return false }
    return who.inner == nil || kid.inner?.id == who.inner
  }

  /// Removes the child, as `.dismiss` does: a screen with those above it.
  func remove(_ who: FuzzWho) {
    guard isThere(who) else { return }
    if who.inner != nil { return modify(who) { $0.inner = nil } }
    switch who.kind {
    case .sheet: sheet = nil
    case .destA, .destB: dest = nil
    case .row: rows.removeAll { $0.id == who.id }
    case .path: path.removeSubrange(path.firstIndex { $0.id == who.id }!...)
    }
  }

  func apply(_ op: FuzzOp) {
    switch op {
    case .showSheet(let id): sheet = FuzzKid(id: id)
    case .sheetNil: sheet = nil
    case .destA(let id): dest = (.destA, FuzzKid(id: id))
    case .destB(let id): dest = (.destB, FuzzKid(id: id))
    case .destNil: dest = nil
    case .addRow(let id): rows.append(FuzzKid(id: id))
    case .removeRow(let id): rows.removeAll { $0.id == id }
    case .replaceRow(let id):
      if let index = rows.firstIndex(where: { $0.id == id }) { rows[index] = FuzzKid(id: id) }
    case .push(let id): path.append(FuzzKid(id: id))
    case .reverseRows: rows.reverse()
    case .insertRow(let id): rows.insert(FuzzKid(id: id), at: 0)
    case .reversePath: path.reverse()
    case .popLast: if !path.isEmpty { path.removeLast() }
    case .popScreen(let id): path.removeAll { $0.id == id }
    case .replaceScreen(let id):
      if let index = path.firstIndex(where: { $0.id == id }) { path[index] = FuzzKid(id: id) }
    case .cancel, .run, .tick, .warm: break
    }
  }

  // MARK: Effects

  func make(_ spec: FuzzSpec, _ owner: FuzzWho?) -> ModelEffect {
    switch spec {
    case .none: return .none
    case .send(let k): return .send(k)
    case .run(let run):
      defer { nextGate += 1 }
      return .run(nextGate, run)
    case .cancel(let id): return .cancel(owner.map { "\($0)/u\(id)" } ?? "u\(id)")
    case .dismiss: return .dismiss
    case .debounce(let id, let inner):
      let effect = make(inner, owner)
      defer { nextPause += 1 }
      // A pause on the clock, then the effect, under the id with `cancelInFlight`.
      let paused = ModelEffect.composite([.pause(nextPause), effect]) { .concatenate($0) }
      return wrap(id, inFlight: true, paused, owner)
    case .cancellable(let id, let inFlight, let inner):
      let effect = make(inner, owner)
      if effect.isNone && !inFlight { return .none }
      return wrap(id, inFlight: inFlight, effect, owner)
    case .merge(let parts):
      return .composite(parts.map { make($0, owner) }) { .merge($0) }
    case .concatenate(let parts):
      return .composite(parts.map { make($0, owner) }) { .concatenate($0) }
    }
  }

  /// `effect` under the id `id` of `owner` (`nil`: the root parent).
  func wrap(_ id: Int, inFlight: Bool, _ effect: ModelEffect, _ owner: FuzzWho?) -> ModelEffect {
    // A child's id is its own, and its ancestors' too: their `.cancel(id:)` reaches it.
    guard let owner else { return .cancellable("u\(id)", inFlight: inFlight, effect) }
    var wrapped = ModelEffect.cancellable("\(owner)/u\(id)", inFlight: inFlight, effect)
    for level in owner.levels.dropLast().reversed() {
      wrapped = .cancellable("\(level)/u\(id)", inFlight: false, wrapped)
    }
    return .cancellable("u\(id)", inFlight: false, wrapped)
  }

  /// The debounces' pauses, by number, with their deadlines (in milliseconds).
  var pauses: [Int: (node: ModelNode, deadline: Int)] = [:]
  var (nextPause, now) = (0, 0)

  /// Ends the pauses that were cancelled: a pause's sleep ends at once when cancelled.
  func endCancelledPauses() {
    while let number = pauses.keys.sorted().first(where: { pauses[$0]!.node.phase == .cancelled }) {
      end(pauses.removeValue(forKey: number)!.node)
      if !isSending { drain() }
    }
  }

  /// Advances the debounce clock past every pause: each wakes, in the order of their deadlines.
  func advanceClock() {
    now += 1_000_000
    while let (number, pause) = pauses.filter({ $0.value.node.phase == .running })
      .min(by: { $0.value.deadline < $1.value.deadline })
    {
      pauses[number] = nil
      end(pause.node)
      if !isSending { drain() }
    }
  }

  var lineage = 0  // NB: The lineage of what starts now.
  func admit(_ container: ModelNode?) -> Bool {
    !cancelledLineages.contains(lineage) && container?.isRunning ?? true
  }

  func node(
    isGroup: Bool = false, run: (Int, FuzzRun)? = nil, steps: [ModelEffect]? = nil,
    names: [String], parent: ModelNode?, lineage: Int, owner: FuzzWho?
  ) -> ModelNode {
    let node = ModelNode(
      isGroup: isGroup, run: run, steps: steps, names: names, parent: parent, lineage: lineage,
      owner: owner)
    alive.append(node)
    nodes.append(node)
    return node
  }

  /// Breaks the cycles of the nodes made (a parent holds its children, each child its parent), so
  /// that a model that is done leaks nothing: the address sanitizer's leak check fails on them.
  func release() {
    for node in nodes { (node.parent, node.children) = (nil, []) }
    nodes = []
  }

  func start(_ effect: ModelEffect, _ lineage: Int, _ container: ModelNode?, _ owner: FuzzWho?) {
    self.lineage = lineage
    var (effect, names, owner) = (effect, [String](), owner)
    while true {
      if case .owned(let who, let inner) = effect {
        (owner, effect) = (who, inner)
      } else if case .cancellable(let name, let inFlight, let inner) = effect {
        if inFlight { cancel(name, sparing: container) }
        names.append(name)
        effect = inner
      } else {
        break
      }
    }
    switch effect {
    case .merge(let parts):
      var (inner, group) = (container, ModelNode?.none)
      if !names.isEmpty, admit(container) {
        group = node(isGroup: true, names: names, parent: container, lineage: lineage, owner: owner)
        inner = group
      }
      for part in parts { start(part, lineage, inner, owner) }
      if let group {
        if group.phase == .starting { group.phase = .running }
        if group.children.isEmpty { emptied(group) }
      }
    case .concatenate(let parts):
      guard admit(container) else { return }
      let concatenation = node(
        steps: parts, names: names, parent: container, lineage: lineage, owner: owner)
      toAdvance.append(concatenation)
      if let step = nextStep(concatenation) { start(step, lineage, concatenation, owner) }
    case .run(let gate, let run):
      guard admit(container) else { return }
      waiting[gate] = node(
        run: (gate, run), names: names, parent: container, lineage: lineage, owner: owner)
    case .send(let k):
      if container?.isRunning ?? true, let owner { queue.append((action(owner, k), lineage)) }
    case .cancel(let name): cancel(name, sparing: nil)
    case .dismiss: dismissChild(from: container)
    case .pause(let number):
      guard admit(container) else { return }
      let pause = node(names: names, parent: container, lineage: lineage, owner: owner)
      pause.pause = number
      pauses[number] = (pause, now + number + 1)
    case .none, .cancellable, .owned: break
    }
  }

  func nextStep(_ concatenation: ModelNode) -> ModelEffect? {
    while let step = concatenation.steps?.first {
      concatenation.steps!.removeFirst()
      guard case .concatenate(let parts) = step else { return step }
      concatenation.steps = parts + concatenation.steps!
    }
    return nil
  }

  func cancel(_ name: String, sparing container: ModelNode?) {
    let members = alive.filter { $0.isRegistered && $0.names.contains(name) }
    var outermost: ModelNode?
    for member in members {
      var node = container
      while let inner = node, inner.depth > member.depth { node = inner.parent }
      guard node === member else {
        cancel(member)
        continue
      }
      if member.depth < outermost?.depth ?? .max { outermost = member }
    }
    var (node, from) = (container, ModelNode?.none)
    while let current = node, let outermost, from !== outermost {
      for child in current.children where child !== from { cancel(child) }
      (node, from) = (current.parent, current)
    }
  }

  func cancel(_ effect: ModelNode) {
    var pending = [(effect, false)]
    while let (effect, isContained) = pending.popLast() {
      let staysOpen = effect.phase == .starting && !isContained
      guard staysOpen || effect.cancel() else { continue }
      pending += effect.children.map { ($0, !staysOpen) }
    }
  }

  func endGoneChildren() {
    let named = Set(alive.filter(\.isRegistered).flatMap(\.names).filter { places[$0] != nil })
    for place in named where !isThere(places[place]!) { cancel(place, sparing: nil) }
  }

  /// The name of a child's place, the id its effects run under, which ends them when it goes.
  func place(_ who: FuzzWho) -> String {
    places["place:\(who)"] = who
    return "place:\(who)"
  }

  /// The action an effect of `who` sends.
  func action(_ who: FuzzWho, _ k: Int) -> FuzzStep {
    .child(
      who.kind, id: who.id, who.part ? .part(.act(k)) : who.inner == nil ? .act(k) : .inner(.act(k))
    )
  }

  func dismissChild(from container: ModelNode?) {
    guard container?.isRunning ?? true else { return }
    var (node, who) = (container, FuzzWho?.none)
    while who == nil, let current = node {
      // NB: The innermost child whose effect this is.
      who = current.names.last { places[$0] != nil }.map { places[$0]! }
      node = current.parent
    }
    guard let who else { return trace.append("!dismissNothing") }
    remove(who)
    endGoneChildren()
    if !isSending { drain() }
  }

  func emptied(_ container: ModelNode) {
    toAdvance.append(container)
    if !isSending { drain() }
  }

  func advance(_ container: ModelNode) {
    guard container.children.isEmpty, container.phase < .finished else { return }
    guard container.steps != nil, container.isRunning, let step = nextStep(container) else {
      return end(container)
    }
    toAdvance.append(container)
    start(step, container.lineage, container, container.owner)
  }

  func end(_ effect: ModelNode) {
    let wasRunning = effect.phase == .running
    effect.phase = wasRunning ? .finished : .unwound
    // NB: A debounce's pause is not an effect of its own.
    if !effect.isGroup && wasRunning && effect.pause == nil { finishedOne.insert(effect.lineage) }
    alive.removeAll { $0 === effect }
    guard let parent = effect.parent else { return }
    parent.children.removeAll { $0 === effect }
    effect.parent = nil
    if parent.children.isEmpty && parent.phase != .starting { emptied(parent) }
  }

  // MARK: Sends

  func reduce(_ action: FuzzStep, _ lineage: Int) {
    switch action {
    case .op(let op):
      trace.append("op:\(op)")
      apply(op)
      switch op {
      case .cancel(let id): start(.cancel("u\(id)"), lineage, nil, nil)
      case .run(let id, let inFlight):
        start(make(.cancellable(id, inFlight: inFlight, .run(.tick)), nil), lineage, nil, nil)
      default: break
      }
    case .child(let kind, let id, let action):
      guard var who = present(kind, id) else {
        trace.append("!drop")
        break
      }
      var (k, owner) = (-1, who)
      switch action {
      case .act(let act):
        k = act
        modify(who) { $0.n += 1 }
        trace.append("\(who):\(k)")
      case .part(.act(let act)):
        (k, owner) = (act, FuzzWho(kind: who.kind, id: who.id, part: true))
        modify(who) { $0.part.n += 1 }
        trace.append("p:\(k)")
      case .inner(.act(let act)):
        guard let inner = kid(who)!.inner else {
          trace.append("!drop")
          break
        }
        (k, owner) = (act, FuzzWho(kind: who.kind, id: who.id, inner: inner.id))
        modify(who) { $0.inner!.n += 1 }
        trace.append("i\(inner.id):\(k)")
      case .showInner(let id):
        trace.append("\(who):show\(id)")
        modify(who) { $0.inner = FuzzInner(id: id) }
      case .innerNil:
        trace.append("\(who):innerNil")
        modify(who) { $0.inner = nil }
      case .tick(let number): trace.append("\(who):tick\(number)")
      case .setID(let id, let act):
        trace.append("\(who):id\(id),\(act)")
        modify(who) { ($0.id, $0.n) = (id, $0.n + 1) }
        // NB: What it returns with the change is the new child's.
        who.id = id
        (k, owner) = (act, who)
      }
      guard k >= 0 else { break }
      let effect = k < specs.count ? make(specs[k], owner) : .none
      let atOnce = effect.dismissesAtOnce
      if owner.part { trace.append("\(who)<") }
      if atOnce {
        remove(owner)
        if !effect.isDismissAlone { trace.append("!dismissWith") }
      }
      // The child's effect, under its place; the parent's reaction, after the child's reducer.
      var placed = atOnce || effect.isNone ? ModelEffect.none : .owned(owner, effect)
      if owner.inner != nil {
        trace.append("\(who)>")
        if !placed.isNone { placed = .cancellable(place(owner), inFlight: false, placed) }
      }
      let reaction = k < reactions.count ? reactions[k] : .none
      var parentEffect = ModelEffect.none
      if case .setID = action {
      } else if owner.part {
      } else if reaction != .none {
        trace.append(owner.inner == nil ? "re:\(reaction)" : "kre:\(reaction)")
        if isThere(owner) && reaction == .remove {
          // NB: A screen alone, as `path[id:] = nil` pops it.
          if owner.kind == .path && owner.inner == nil {
            path.removeAll { $0.id == owner.id }
          } else {
            remove(owner)
          }
        }
        if isThere(owner) && reaction == .replace {
          if let inner = owner.inner {
            modify(owner) { $0.inner = FuzzInner(id: inner) }
          } else {
            modify(owner) { $0 = FuzzKid(id: owner.id) }
          }
        }
        if isThere(owner) && reaction == .other {
          if let inner = owner.inner {
            modify(owner) { $0.inner = FuzzInner(id: (inner + 1) % 2) }
          } else {
            switch owner.kind {
            case .sheet: sheet = FuzzKid(id: (owner.id + 1) % 3)
            case .destA: dest = (.destB, FuzzKid(id: owner.id))
            case .destB: dest = (.destA, FuzzKid(id: owner.id))
            case .row:
              if let free = (0..<5).first(where: { id in !rows.contains { $0.id == id } }) {
                modify(owner) { $0 = FuzzKid(id: free) }
              }
            case .path: break
            }
          }
        }
        let reactionEffect = self.effect(of: reaction, owner.inner == nil ? nil : who)
        if owner.inner == nil {
          parentEffect = reactionEffect
        } else {
          placed = .composite([placed, .owned(who, reactionEffect)]) { .merge($0) }
        }
      }
      if !placed.isNone {
        start(.cancellable(place(who), inFlight: false, placed), lineage, nil, who)
      }
      if !parentEffect.isNone { start(parentEffect, lineage, nil, nil) }
    case .open, .cancelTask, .scoped, .scopedInner, .advanceClock: break
    }
    endGoneChildren()
  }

  func drain() {
    isSending = true
    while true {
      if !queue.isEmpty {
        let (action, lineage) = queue.removeFirst()
        if !cancelledLineages.contains(lineage) { reduce(action, lineage) }
      } else if !toAdvance.isEmpty {
        advance(toAdvance.removeFirst())
      } else {
        break
      }
    }
    isSending = false
    // NB: The store's observers, the scoped stores among them, hear of what happened.
    for index in scopes.indices {
      if let who = present(scopes[index].kind, scopes[index].id), let kid = kid(who) {
        scopes[index].last = kid
      }
    }
    for index in inners.indices {
      if let inner = scoped(inners[index].key)?.inner { inners[index].last = inner }
    }
  }

  func send(_ action: FuzzStep) {
    let lineage = lineages
    lineages += 1
    isSending = true
    reduce(action, lineage)
    drain()
  }

  func open(_ gate: Int) {
    guard let run = waiting.removeValue(forKey: gate) else { return }
    trace.append("W\(gate)\(run.phase == .cancelled ? "x" : "")")
    func deliver(_ action: FuzzStep) {
      guard run.isRunning else { return }
      isSending = true
      reduce(action, run.lineage)
      drain()
      // NB: A pause this cancelled ends, in its own task, while the run goes on in its: the docs
      // leave that order open (a cancelled step ends when its task does), so both are checked.
      if pausesFirst { endCancelledPauses() }
    }
    switch run.run!.kind {
    case .send(let k): deliver(action(run.owner!, k))
    case .tick:
      if let owner = run.owner {
        deliver(.child(owner.kind, id: owner.id, .tick(gate)))
      } else {
        deliver(.op(.tick(gate)))
      }
    case .nothing: break
    case .dismiss: dismissChild(from: run)
    case .sendThenDismiss(let k):
      deliver(action(run.owner!, k))
      dismissChild(from: run)
    }
    end(run)
  }

  /// `cancel()` on a send's task: its effects, and nothing more in its lineage.
  func cancelTask(_ lineage: Int) {
    guard lineage < lineages else { return }
    cancelledLineages.insert(lineage)
    for effect in alive where effect.lineage == lineage && !effect.isGroup { cancel(effect) }
  }

  func perform(_ step: FuzzStep) {
    switch step {
    case .open(let gate): open(gate)
    case .cancelTask(let index): cancelTask(index)
    case .advanceClock: advanceClock()
    case .child, .op: send(step)
    case .scoped(let kind, let id, let action):
      if makeScope(kind, id) {
        send(.child(kind, id: id, action))
      } else {
        trace.append("noscope")
      }
    case .scopedInner(let kind, let id, let k):
      let key = fuzzScopeKey(kind, id)
      if makeScope(kind, id), !inners.contains(where: { $0.key == key }),
        let inner = scoped(key)?.inner
      {
        inners.append((key, inner))
      }
      if inners.contains(where: { $0.key == key }) {
        send(.child(kind, id: id, .inner(.act(k))))
      } else {
        trace.append("noscope")
      }
    }
    endCancelledPauses()
    trace.append("wait:\(waiting.keys.sorted())")
    trace.append("scoped:" + scopes.map { "\($0.key)=\(fuzzDescribe(scoped($0.key)!))" }.joined())
    let inners = inners.map { inner in
      "\(inner.key)=\(fuzzDescribe(scoped(inner.key)?.inner ?? inner.last))"
    }
    trace.append("inner:" + inners.joined())
    trace.append("tasks:" + (0..<lineages).map(describeTask).joined())
  }

  /// A send's task: whether effects of it are in flight, and whether it reads `isCancelled`.
  func describeTask(_ lineage: Int) -> String {
    let effects = alive.filter { $0.lineage == lineage && !$0.isGroup }
    let cancelled =
      cancelledLineages.contains(lineage)
      || !finishedOne.contains(lineage) && !effects.contains(where: \.isRunning)
    return fuzzTask(pending: !effects.isEmpty, cancelled: cancelled)
  }

  func finish() -> [String] {
    while true {
      if let gate = waiting.keys.min() {
        open(gate)
      } else if alive.contains(where: { !$0.isGroup }) {
        advanceClock()
        trace.append("clock")
      } else {
        break
      }
      endCancelledPauses()
      trace.append("wait:\(waiting.keys.sorted())")
    }
    let dest = self.dest.map { ($0.kind == .destA ? "a" : "b", $0.kid) }
    trace.append("state:" + fuzzDescribe(sheet, dest, rows, path))
    let cancelled = (0..<lineages).map {
      finishedOne.contains($0) && !cancelledLineages.contains($0) ? "0" : "1"
    }
    trace.append("cancelled:\(cancelled.joined())")
    return trace
  }
}

// MARK: - Generating, comparing and shrinking programs

enum ChildFuzz {
  /// The number of child actions with an effect each: `.act(k)` returns `specs[k]`.
  static let kinds = 6

  static func spec(_ k: Int, depth: Int, _ rng: inout ChildFuzzRng) -> FuzzSpec {
    let target = k + 1 + rng.next(3)
    func parts(_ rng: inout ChildFuzzRng) -> [FuzzSpec] {
      var parts: [FuzzSpec] = []
      for _ in 0..<(1 + rng.next(3)) { parts.append(spec(k, depth: depth + 1, &rng)) }
      return parts
    }
    switch depth >= 2 ? rng.next(7) : rng.next(12) {
    case 0: return .send(target)
    case 1, 6: return .run(.send(target))
    case 2:
      return .run([.nothing, .dismiss, .sendThenDismiss(target), .send(target)][rng.next(4)])
    case 3: return .cancel(rng.next(3))
    case 4: return rng.next(3) == 0 ? .dismiss : .run(.nothing)
    case 5: return .none
    case 7, 8: return .merge(parts(&rng))
    case 9: return .concatenate(parts(&rng))
    default:
      if rng.next(4) == 0 { return .debounce(rng.next(3), spec(k, depth: depth + 1, &rng)) }
      return .cancellable(rng.next(3), inFlight: rng.next(3) == 0, spec(k, depth: depth + 1, &rng))
    }
  }

  @MainActor static func op(_ model: FuzzModel, _ rng: inout ChildFuzzRng, _ nextScreen: inout Int)
    -> FuzzOp
  {
    let row = model.rows.isEmpty ? rng.next(5) : model.rows[rng.next(model.rows.count)].id
    let screen = model.path.isEmpty ? 99 : model.path[rng.next(model.path.count)].id
    switch rng.next(17) {
    case 14: return .reverseRows
    case 15:
      let free = (0..<5).filter { id in !model.rows.contains { $0.id == id } }
      return free.isEmpty ? .reverseRows : .insertRow(free[rng.next(free.count)])
    case 16: return .reversePath
    case 0: return .showSheet(rng.next(3))
    case 1: return .sheetNil
    case 2: return .destA(rng.next(2))
    case 3: return .destB(rng.next(2))
    case 4: return .destNil
    case 5:
      let free = (0..<5).filter { id in !model.rows.contains { $0.id == id } }
      return free.isEmpty ? .replaceRow(row) : .addRow(free[rng.next(free.count)])
    case 6: return .removeRow(row)
    case 7: return .replaceRow(row)
    case 8:
      defer { nextScreen += 1 }
      return .push(nextScreen)
    case 9: return .popLast
    case 10: return .popScreen(screen)
    case 11: return .replaceScreen(screen)
    case 12: return .cancel(rng.next(3))
    default: return .run(rng.next(3), inFlight: rng.next(2) == 0)
    }
  }

  /// A program of `count` steps, chosen as the model runs them: gates opened are those of runs
  /// that wait, and actions mostly go to children that are there.
  @MainActor static func program(seed: UInt64, steps count: Int = 30) -> FuzzProgram {
    var rng = ChildFuzzRng(state: seed &* 0x9E37_79B9_7F4A_7C15)
    var specs: [FuzzSpec] = []
    for k in 0..<kinds { specs.append(spec(k, depth: 0, &rng)) }
    var reactions: [FuzzReaction] = []
    for _ in 0..<kinds {
      switch rng.next(10) {
      case 0, 1: reactions.append(.remove)
      case 2: reactions.append(rng.next(2) == 0 ? .replace : .other)
      case 3: reactions.append(.run(rng.next(3), inFlight: rng.next(2) == 0))
      case 4: reactions.append(.cancel(rng.next(3)))
      default: reactions.append(.none)
      }
    }
    let model = FuzzModel(specs: specs, reactions: reactions)
    var (steps, nextScreen) = ([FuzzStep](), 102)
    // NB: Every kind of child is there to begin with.
    let prelude: [FuzzOp] = [
      .showSheet(0), .destA(0), .addRow(0), .addRow(1), .push(100), .push(101),
    ]
    for op in prelude {
      model.perform(.op(op))
      steps.append(.op(op))
    }
    for _ in 0..<count {
      let roll = rng.next(100)
      let step: FuzzStep
      if roll < 35, !model.pauses.isEmpty, rng.next(3) == 0 {
        step = .advanceClock
      } else if roll < 35, !model.waiting.isEmpty {
        let gates = model.waiting.keys.sorted()
        step = .open(gates[rng.next(gates.count)])
      } else if roll < 40 {
        step = .cancelTask(rng.next(max(1, model.lineages)))
      } else if roll < 72 {
        let k = rng.next(kinds)
        // NB: Mostly to a child that is there; sometimes to one that is not.
        var kinds: [FuzzKind] = [.sheet, .destA, .destB, .row, .path]
        if rng.next(6) != 0 {
          kinds.removeAll { kind in
            model.present(kind, (kind == .row ? model.rows.first?.id : model.path.first?.id) ?? -1)
              == nil
          }
        }
        let kind = kinds.isEmpty ? FuzzKind.sheet : kinds[rng.next(kinds.count)]
        var id = 0
        if kind == .row {
          let absent = model.rows.isEmpty || rng.next(8) == 0
          id = absent ? rng.next(5) : model.rows[rng.next(model.rows.count)].id
        } else if kind == .path {
          let absent = model.path.isEmpty || rng.next(8) == 0
          id = absent ? 99 : model.path[rng.next(model.path.count)].id
        }
        let action: FuzzKidAction
        switch rng.next(20) {
        case 0..<9: action = .act(k)
        case 9..<12: action = .inner(.act(k))
        case 12, 13: action = .part(.act(k))
        case 14, 15: action = .showInner(rng.next(2))
        case 16: action = .innerNil
        default:
          // NB: A screen's id is the stack's; a row's must stay its own.
          let free = (0..<5).filter { id in !model.rows.contains { $0.id == id } }
          if kind == .path || kind == .row && free.isEmpty {
            action = .act(k)
          } else {
            action = .setID(kind == .row ? free[rng.next(free.count)] : rng.next(3), k)
          }
        }
        // NB: Some through a store scoped to the child, which may outlive it.
        if rng.next(3) != 0 {
          step = .child(kind, id: id, action)
        } else if rng.next(2) == 0 {
          // NB: A store scoped to an inner child is made once there is one; first, one to show.
          let key = fuzzScopeKey(kind, id)
          let shown = model.present(kind, id).flatMap(model.kid)?.inner != nil
          step =
            shown || model.inners.contains { $0.key == key }
            ? .scopedInner(kind, id: id, k) : .scoped(kind, id: id, .showInner(k % 2))
        } else {
          step = .scoped(kind, id: id, action)
        }
      } else {
        step = .op(op(model, &rng, &nextScreen))
      }
      model.perform(step)
      steps.append(step)
    }
    model.release()
    return FuzzProgram(specs: specs, reactions: reactions, steps: steps)
  }

  /// The model's trace and the store's, for `program`.
  @MainActor static func check(_ program: FuzzProgram) async -> (
    model: [String], store: [String]
  ) {
    let actual = await FuzzHarness(specs: program.specs, reactions: program.reactions).run(program)
    let expected = model(program, pausesFirst: true)
    guard expected != actual else { return (expected, actual) }
    let other = model(program, pausesFirst: false)  // NB: The other order the docs leave open.
    return (other == actual ? other : expected, actual)
  }

  /// The model's trace of `program`, with cancelled pauses ending first or after the run.
  @MainActor static func model(_ program: FuzzProgram, pausesFirst: Bool) -> [String] {
    let model = FuzzModel(specs: program.specs, reactions: program.reactions)
    model.pausesFirst = pausesFirst
    for step in program.steps { model.perform(step) }
    defer { model.release() }
    return model.finish()
  }

  /// Where two traces first differ, with a few lines of context.
  static func difference(_ expected: [String], _ actual: [String]) -> String? {
    guard expected != actual else { return nil }
    let common = min(expected.count, actual.count)
    let index = (0..<common).first { expected[$0] != actual[$0] } ?? common
    let from = max(0, index - 6)
    return
      "first difference at \(index)\n model: \(expected[from..<min(expected.count, index + 3)])"
      + "\n store: \(actual[from..<min(actual.count, index + 3)])"
  }

  /// Simpler versions of a spec: `.none`, a part alone, a part simplified, a part left out.
  static func simpler(_ spec: FuzzSpec) -> [FuzzSpec] {
    var simpler: [FuzzSpec] = spec == .none ? [] : [.none]
    switch spec {
    case .cancellable(let id, let inFlight, let inner):
      simpler.append(inner)
      if inFlight { simpler.append(.cancellable(id, inFlight: false, inner)) }
      simpler += self.simpler(inner).map { .cancellable(id, inFlight: inFlight, $0) }
    case .merge(let parts), .concatenate(let parts):
      let rebuild: ([FuzzSpec]) -> FuzzSpec =
        if case .merge = spec { { .merge($0) } } else { { .concatenate($0) } }
      simpler += parts
      for index in parts.indices where parts.count > 1 {
        var fewer = parts
        fewer.remove(at: index)
        simpler.append(rebuild(fewer))
      }
      for index in parts.indices {
        for part in self.simpler(parts[index]) {
          var changed = parts
          changed[index] = part
          simpler.append(rebuild(changed))
        }
      }
    case .debounce(let id, let inner):
      simpler += [inner, .cancellable(id, inFlight: true, inner)]
      simpler += self.simpler(inner).map { .debounce(id, $0) }
    case .run(let run) where run != .nothing: simpler.append(.run(.nothing))
    default: break
    }
    return simpler
  }

  /// A smaller program on which the model and the store still disagree.
  @MainActor static func shrink(_ program: FuzzProgram) async -> FuzzProgram {
    func fails(_ program: FuzzProgram) async -> Bool {
      let (expected, actual) = await check(program)
      return expected != actual
    }
    var (best, changed) = (program, true)
    while changed {
      changed = false
      for index in best.steps.indices.reversed() {
        var candidate = best
        candidate.steps.remove(at: index)
        if await fails(candidate) { (best, changed) = (candidate, true) }
      }
      for k in best.specs.indices {
        for spec in simpler(best.specs[k]) {
          var candidate = best
          candidate.specs[k] = spec
          if await fails(candidate) {
            (best, changed) = (candidate, true)
            break
          }
        }
      }
    }
    return best
  }
}

@MainActor
@Suite("Child features: a differential fuzzer against the docs' model")
struct ChildFuzzTests {
  @Test("random programs over a sheet, a destination, rows and a stack agree with the model")
  func fuzz() async {
    for seed in UInt64(1)...UInt64(40) {
      let (expected, actual) = await ChildFuzz.check(ChildFuzz.program(seed: seed))
      if let difference = ChildFuzz.difference(expected, actual) {
        Issue.record("seed \(seed): \(difference)")
      }
    }
  }

  @Test("a debounce its parent cancels as a first step ends before or after the run that sent it")
  func cancelledPauseEndsBeforeOrAfterTheRun() async {
    // The run's send starts the concatenation and the parent cancels its pause. The pause's task
    // and the run's end in either order (the docs leave it open; a debug build mostly ends the
    // pause first, a release build mostly the run): then the concatenation sends `.act(4)` and
    // the parent removes the child, which cancels the run if it has not ended.
    let program = FuzzProgram(
      specs: [.none, .none, .run(.send(3)), .concatenate([.debounce(0, .none), .send(4)])],
      reactions: [.none, .none, .none, .cancel(0), .remove],
      steps: [.op(.destA(0)), .child(.destA, id: 0, .act(2))])
    let (first, after) = (
      ChildFuzz.model(program, pausesFirst: true), ChildFuzz.model(program, pausesFirst: false)
    )
    #expect(first.contains("re:remove") && first.last == "cancelled:11")
    #expect(after.contains("re:remove") && after.last == "cancelled:10")
    #expect(first.dropLast() == after.dropLast())
    let (expected, actual) = await ChildFuzz.check(program)
    #expect(actual == expected && [first, after].contains(actual))
  }
}

// MARK: - Bugs the fuzzer found

/// A destination of two cases, as <doc:NavigationAndChildFeatures> builds one: an editor, and an
/// alert whose button asks the parent to delete.
enum WrongCase {
  enum Destination: Equatable {
    case edit(Int)
    case alert(String)
  }
  enum DestinationAction: Equatable, Sendable {
    case edit(Edit)
    case alert(Alert)
  }
  enum Edit: Equatable, Sendable { case save }
  enum Alert: Equatable, Sendable { case delete(String) }
  struct State: Equatable {
    var destination: Destination?
    var names = ["Blob"]
  }
  enum Action: Equatable, Sendable { case destination(DestinationAction) }

  static let reducer = Reduce<State, Action> { state, action in
    if case .destination(.alert(.delete(let name))) = action {
      state.names.removeAll { $0 == name }
    }
    return .none
  }
  .ifLet(
    \.destination, action: Action.destination,
    child: Reduce<Destination, DestinationAction> { _, _ in .none }
      .scope(
        Destination.edit, action: DestinationAction.edit,
        child: Reduce<Int, Edit> { _, _ in .none }
      )
      .scope(Destination.alert, action: DestinationAction.alert))
}

@MainActor
@Suite("Child features: what the differential fuzzer found")
struct ChildFuzzBugTests {
  @Test("an action for a case the destination does not show is dropped, not reduced by the parent")
  func wrongCaseReachesParent() async {
    // A gone child: dropped, reported, and the parent never sees the action.
    let gone = Store(initialState: WrongCase.State(), WrongCase.reducer)
    let (_, goneReports) = await capturingReports {
      gone.send(.destination(.alert(.delete("Blob"))))
    }
    #expect(gone.state.names == ["Blob"])
    #expect(goneReports.count == 1 && goneReports[0].hasPrefix("MiniRedux: dropped"))

    // Another case shown: the docs say the same ("dropped, as one for a gone child is").
    let store = Store(
      initialState: WrongCase.State(destination: .edit(1)), WrongCase.reducer)
    let (_, reports) = await capturingReports {
      store.send(.destination(.alert(.delete("Blob"))))
    }
    #expect(store.state.destination == .edit(1))
    #expect(reports.count == 1 && reports.first?.hasPrefix("MiniRedux: dropped") == true)
    #expect(store.state.names == ["Blob"])
  }

  @Test("a store scoped to a gone child keeps its last state and drops sends, with a report")
  func scopedStoreOfGoneChild() async {
    let program = FuzzProgram(
      specs: [.run(.send(1))], reactions: [],
      steps: [
        .op(.showSheet(0)), .scoped(.sheet, id: 0, .act(0)), .op(.sheetNil),
        .scoped(.sheet, id: 0, .act(1)), .scopedInner(.sheet, id: 0, 1),
        .op(.addRow(3)), .scoped(.row, id: 3, .showInner(1)), .scopedInner(.row, id: 3, 1),
        .op(.removeRow(3)), .scopedInner(.row, id: 3, 1),
      ])
    let (expected, actual) = await ChildFuzz.check(program)
    #expect(expected.contains("scoped:S=0.1p0"))
    #expect(expected.contains("inner:R3=i1.1"))
    // NB: The sheet's scoped store saw no inner child: no store is scoped to one, nothing sent.
    #expect(expected.contains("noscope"))
    #expect(expected.filter { $0 == "!drop" }.count == 2)
    #expect(expected.last == "cancelled:111111111")
    #expect(actual == expected)
  }

  @Test("an action for a case a row does not show is dropped by the list's parent too")
  func wrongCaseInRowReachesNoParent() async {
    enum Row: Identifiable, Equatable {
      case a(Int), b(Int)
      var id: Int {
        switch self {
        case .a(let id), .b(let id): id
        }
      }
    }
    enum Tap: Equatable, Sendable { case tap }
    enum RowAction: Equatable, Sendable { case a(Tap), b(Tap) }
    enum Action: Equatable, Sendable { case row(id: Int, RowAction) }
    struct State: Equatable {
      var rows: [Row] = [.b(1)]
      var parentSaw = 0
    }
    let rowReducer = Reduce<Row, RowAction> { _, _ in .none }
      .scope(Row.a, action: RowAction.a, child: { (_: inout Int, _: Tap) in .none })
    let store = Store(
      initialState: State(),
      Reduce<State, Action> { state, _ in (state.parentSaw += 1, .none).1 }
        .forEach(\.rows, action: Action.row, child: rowReducer))
    let (_, reports) = await capturingReports { store.send(.row(id: 1, .a(.tap))) }
    #expect(store.state.parentSaw == 0)
    #expect(reports.count == 1 && reports.first?.hasPrefix("MiniRedux: dropped") == true)
  }

  @Test("the fuzzer's smallest program for it: the parent's reaction removes the other case")
  func wrongCaseReachesParentFuzzed() async {
    let program = FuzzProgram(
      specs: [.none], reactions: [.remove],
      steps: [.op(.destB(0)), .child(.destA, id: 0, .act(0))])
    let (expected, actual) = await ChildFuzz.check(program)
    #expect(expected.last == "cancelled:11")
    #expect(actual == expected)
  }

  /// A reducer that cancels the task of the send whose action it reduces, as Guarantees puts it:
  /// "a `StoreTask` cancelled while one of its actions is reduced starts none of the effects that
  /// reduction returns, but a `.cancel(id:)` among them still applies".
  func cancelInCancelledTask(_ effect: Effect<String>) async -> Bool {
    let (gate, box) = (Gate(), Locked<StoreTask?>(nil))
    let store = Store<Int, String>(initialState: 0) { _, action in
      switch action {
      case "start":
        return .run { send in
          await gate.wait()
          await send("ping")
        }
      case "listen": return .run { _ in await untilCancelled() }.cancellable(id: "x")
      case "ping":
        box.current?.cancel()
        return effect
      default: return .none
      }
    }
    let listening = store.send("listen")
    let started = store.send("start")
    box.withLock { $0 = started }
    gate.open()
    await finished(started)
    defer { listening.cancel() }
    return listening.isCancelled
  }

  @Test("a .cancel(id:) in a concatenation returned in a cancelled task still applies")
  func cancelInConcatenationOfCancelledTask() async {
    #expect(await cancelInCancelledTask(.cancel(id: "x")))
    #expect(await cancelInCancelledTask(.merge(.cancel(id: "x"), .send("other"))))
    let applied = await cancelInCancelledTask(.concatenate(.cancel(id: "x"), .send("other")))
    #expect(applied)
  }
}

// MARK: - Debounce in children

/// A sheet and two rows whose reducers debounce under an id their parent uses too.
enum ChildDebounce {
  enum Action: Equatable, Sendable {
    case sheet(KidAction), row(id: Int, KidAction)
    case show, hide, cancel, listen, debounce, tick, warm
  }
  enum KidAction: Equatable, Sendable { case run, send, merge, done }
  struct Kid: Equatable, Identifiable, Sendable {
    var id: Int
    var n = 0
  }
  struct State: Equatable {
    var sheet: Kid?
    var rows = [Kid(id: 0), Kid(id: 1)]
  }

  /// Runs `sends` on a store, then advances its clock past every debounce: what was reduced, and
  /// each send's task as the fuzzer's traces show it (`finish()` would wait, `isCancelled`).
  @MainActor static func run(_ sends: [Action]) async -> (seen: [String], tasks: String) {
    let (clock, seen) = (TestClock(), Recorder<String>())
    let kid = Reduce<Kid, KidAction> { state, action in
      let done = Effect<KidAction>.run { send in await send(.done) }
      switch action {
      case .run: return done.debounce(id: "x", for: .seconds(1), clock: clock)
      case .send: return .send(.done).debounce(id: "x", for: .seconds(1), clock: clock)
      case .merge:
        return .merge(.send(.done), done).debounce(id: "x", for: .seconds(1), clock: clock)
      case .done:
        state.n += 1
        seen.append("\(state.id)")
        return .none
      }
    }
    let reducer = Reduce<State, Action> { state, action in
      switch action {
      case .show: state.sheet = Kid(id: 7)
      case .hide: state.sheet = nil
      case .cancel: return .cancel(id: "x")
      case .listen: return .run { _ in await untilCancelled() }.cancellable(id: "x")
      case .debounce: return .send(.tick).debounce(id: "x", for: .seconds(1), clock: clock)
      case .tick: seen.append("tick")
      case .warm: return .run { _ in try? await clock.sleep(for: .zero) }
      case .sheet, .row: break
      }
      return .none
    }
    .ifLet(\.sheet, action: Action.sheet, child: kid)
    .forEach(\.rows, action: Action.row, child: kid)
    let store = Store(initialState: State(), reducer)
    // NB: Puts the store's effects' executor in the clock's hands, as the fuzzer's `.warm`.
    store.send(.warm)
    await clock.advance()
    let tasks = sends.map { store.send($0) }
    await clock.advance(by: .seconds(2))
    let shown = tasks.map(fuzzDescribe).joined()
    for task in tasks { task.cancel() }
    await finished(tasks)
    return (seen.values, shown)
  }
}

@MainActor
@Suite("Child features: debounce inside children, against the docs")
struct ChildDebounceTests {
  @Test("a child's debounce ends with the child, in its pause")
  func removedInPause() async {
    let (seen, tasks) = await ChildDebounce.run([.show, .sheet(.run), .hide])
    #expect(seen == [] && tasks == "xxx")
  }

  @Test("a parent's .cancel(id:) and its debounce under the id reach a child's debounce")
  func parentReachesDown() async {
    let cancelled = await ChildDebounce.run([.show, .sheet(.run), .cancel])
    #expect(cancelled.seen == [] && cancelled.tasks == "xxx")
    let replaced = await ChildDebounce.run([.show, .sheet(.run), .debounce])
    #expect(replaced.seen == ["tick"] && replaced.tasks == "xx.")
  }

  @Test("a child's debounce never cancels its parent's effect under the id, nor another row's")
  func childIDsAreItsOwn() async {
    let parent = await ChildDebounce.run([.show, .listen, .sheet(.run)])
    #expect(parent.seen == ["7"] && parent.tasks == "xP.")
    let rows = await ChildDebounce.run([.row(id: 0, .merge), .row(id: 1, .run)])
    #expect(rows.seen.sorted() == ["0", "0", "1"] && rows.tasks == "..")
  }

  @Test("a newer debounce replaces the older; the pause of one that finishes is not a cancel")
  func newerReplacesOlder() async {
    let (seen, tasks) = await ChildDebounce.run([.show, .sheet(.run), .sheet(.send)])
    #expect(seen == ["7"] && tasks == "xx.")
    let merged = await ChildDebounce.run([.show, .sheet(.merge)])
    #expect(merged.seen == ["7", "7"] && merged.tasks == "x.")
  }
}
