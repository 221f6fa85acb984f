// MiniRedux · Copyright (c) 2026 The MiniRedux authors · MIT License: https://opensource.org/license/mit

#if canImport(Combine)
  import Combine
#endif
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Work a reducer asks its store to do once it has changed the state: a value, which the store
/// starts right after the reducer returns (<doc:Guarantees>, <doc:EffectsAndCancellation>).
/// ```swift
/// case .getQuoteTapped:
///   state = "Loading..."
///   return .run { send in
///     let quote = try await loadQuote()
///     await send(.quoteLoaded(quote))
///   } catch: { error, send in
///     await send(.quoteLoaded("Error: \(error)"))
///   }
///   .cancellable(id: CancelID.load, cancelInFlight: true)
/// ```
public struct Effect<Action: Sendable>: Sendable {
  let operation: Operation
}

// MARK: - Creating effects

extension Effect {
  /// An effect that does nothing: what a reducer returns when an action only changes state.
  /// ```swift
  /// case .incrementTapped:
  ///   state.count += 1
  ///   return .none
  /// ```
  nonisolated public static var none: Self { Self(operation: .none) }

  /// An effect that runs `operation` off the main actor; each `await send(action)` in it hops to
  /// the main actor and reduces `action` before returning, unless the effect was cancelled.
  /// ```swift
  /// case .loadUser:
  ///   return .run { send in
  ///     await send(.userLoaded(try await api.user()))
  ///   } catch: { error, send in
  ///     await send(.loadFailed("\(error)"))
  ///   }
  /// ```
  /// - Parameters:
  ///   - priority: The priority of the operation's task.
  ///   - operation: The work, which gets a ``Send`` to send actions back.
  ///   - handler: Gets what `operation` throws, unless it is a `CancellationError` or the effect
  ///     was cancelled; without one, the error goes to standard error.
  public static func run(
    priority: TaskPriority? = nil,
    operation: @escaping @concurrent @Sendable (_ send: Send<Action>) async throws -> Void,
    catch handler: (
      @concurrent @Sendable (_ error: any Error, _ send: Send<Action>) async -> Void
    )? = nil
  ) -> Self {
    Self(operation: .run(priority, operation, handler))
  }

  /// An effect that sends `action` back, reduced before the `send` that produced it returns.
  /// ```swift
  /// case .saveTapped:
  ///   return .send(.delegate(.saved))
  /// ```
  public static func send(_ action: Action) -> Self { Self(operation: .send(action)) }
}

// MARK: - Composing effects

extension Effect {
  /// An effect that starts all of `effects` at once, and ends when all of them have ended.
  /// ```swift
  /// return .merge(.send(.started), .run { send in await send(.loaded(try await load())) })
  /// ```
  public static func merge(_ effects: Self...) -> Self { merge(effects) }

  /// An effect that starts all of `effects` at once, and ends when all of them have ended.
  /// ```swift
  /// return .merge(
  ///   queries.map { query in
  ///     .run { send in await send(.results(try await api.search(query))) }
  ///   })
  /// ```
  public static func merge(_ effects: some Sequence<Self>) -> Self {
    composite(effects, Operation.merge)
  }

  /// An effect that starts each of `effects` once the previous one, and what it contains, has
  /// ended (not what its actions started); once cancelled, it starts no more.
  /// ```swift
  /// return .concatenate(.run { _ in try await save() }, .send(.saved))
  /// ```
  public static func concatenate(_ effects: Self...) -> Self { concatenate(effects) }

  /// An effect that starts each of `effects` once the previous one has ended.
  /// ```swift
  /// return .concatenate(drafts.map { draft in .run { _ in try await save(draft) } })
  /// ```
  public static func concatenate(_ effects: some Collection<Self>) -> Self {
    composite(effects, Operation.concatenate)
  }

  private static func composite(_ effects: some Sequence<Self>, _ make: (Parts) -> Operation)
    -> Self
  {
    let parts = effects.filter { !$0.isNone }
    return parts.count > 1 ? Self(operation: make(Parts(parts))) : parts.first ?? .none
  }

  /// The same work, under the same ids, sending `transform(action)` for each `action`.
  /// ```swift
  /// case .counter(let action):
  ///   return counterReducer(&state.counter, action).map(AppAction.counter)
  /// ```
  public func map<T: Sendable>(_ transform: @escaping @Sendable (Action) -> T) -> Effect<T> {
    map(transform) { $0 }
  }

  /// `map`, with every id inside renamed by `rename`: how an embedded child's ids become its own.
  func map<T>(_ transform: @escaping @Sendable (Action) -> T, ids rename: (EffectID) -> EffectID)
    -> Effect<T>
  {
    guard parts != nil else { return map(transform, rename, parts: []) }
    // NB: Loops, not recursion, as all walks of an effect: list parents first, map children first.
    var (effects, pending) = ([Self](), [self])
    while let effect = pending.popLast() {
      effects.append(effect)
      pending += effect.parts?.effects.reversed() ?? []
    }
    var mapped: [Effect<T>] = []
    for effect in effects.reversed() {
      let parts = (0..<(effect.parts?.effects.count ?? 0)).map { _ in mapped.removeLast() }
      mapped.append(effect.map(transform, rename, parts: parts))
    }
    return mapped[0]
  }

  private func map<T>(
    _ transform: @escaping @Sendable (Action) -> T, _ rename: (EffectID) -> EffectID,
    parts: [Effect<T>]
  ) -> Effect<T> {
    switch operation {
    case .none: return .none
    case .send(let action): return .send(transform(action))
    case .cancel(let id): return Effect<T>(operation: .cancel(rename(id)))
    case .report(let message): return Effect<T>(operation: .report(message))
    case .cancellable(let id, let cancelInFlight, _):
      return parts[0].cancellable(rename(id), cancelInFlight: cancelInFlight)
    case .merge: return Effect<T>(operation: .merge(.init(parts)))
    case .concatenate: return Effect<T>(operation: .concatenate(.init(parts)))
    case .run(let priority, let body, let handler):
      let mappedHandler = handler.map { handler -> Effect<T>.Handler in
        { error, send in await handler(error, Send(send, transform)) }
      }
      return Effect<T>(
        operation: .run(priority, { try await body(Send($0, transform)) }, mappedHandler))
    }
  }
}

// MARK: - Cancellation and time

extension Effect {
  /// This effect, with everything it contains registered under `id` the moment it starts, so that
  /// `.cancel(id:)`, even later in the same reducer output, finds it.
  ///
  /// What the effect's actions start is not contained in it; `cancelInFlight` never cancels this
  /// effect, nor a wrapper around it. Ids compare by type and value, per store (<doc:Guarantees>).
  /// ```swift
  /// enum CancelID { case search }
  ///
  /// case .queryChanged(let query):
  ///   return .run { send in await send(.results(try await api.search(query))) }
  ///     .cancellable(id: CancelID.search, cancelInFlight: true)
  /// ```
  public func cancellable(id: sending some Hashable, cancelInFlight: Bool = false) -> Self {
    cancellable(EffectID(id), cancelInFlight: cancelInFlight)
  }

  func cancellable(_ id: EffectID, cancelInFlight: Bool = false) -> Self {
    if isNone && !cancelInFlight { return self }
    let parts = Parts(self, [], height: (parts?.height ?? 0) + 1)
    return Self(operation: .cancellable(id, cancelInFlight: cancelInFlight, parts))
  }

  /// An effect that cancels the effects running under `id`; what their actions started keeps
  /// running, as part of the ``StoreTask`` it descends from.
  /// ```swift
  /// case .stopTapped:
  ///   return .cancel(id: CancelID.timer)
  /// ```
  public static func cancel(id: sending some Hashable) -> Self {
    Self(operation: .cancel(EffectID(id)))
  }

  /// This effect after a sleep of `duration` on `clock`, all cancellable under `id` with
  /// `cancelInFlight: true`: a newer debounced effect replaces it.
  /// ```swift
  /// case .queryChanged(let query):
  ///   return .run { send in await send(.results(try await api.search(query))) }
  ///     .debounce(id: CancelID.search, for: .milliseconds(300))
  /// ```
  public func debounce(
    id: sending some Hashable, for duration: Duration,
    clock: some Clock<Duration> = ContinuousClock()
  ) -> Self {
    // NB: The runtime traps on a deadline past Int64.max seconds; this one is years away still.
    let duration = min(duration, .seconds(Int64.max / 4))
    guard case .run(let priority, let body, let handler) = operation else {
      let wait = Self.run { _ in try await clock.sleep(for: duration) }
      return Self.concatenate(wait, self).cancellable(id: id, cancelInFlight: true)
    }
    // NB: One `.run` is one task, which sleeps, then works: what a concatenation of the two does,
    // at half the cost. Cancelled during its sleep, it never starts the work.
    let debounced: Body = { send in
      try await clock.sleep(for: duration)
      try Task.checkCancellation()
      try await body(send)
    }
    return Self(operation: .run(priority, debounced, handler)).cancellable(
      id: id, cancelInFlight: true)
  }
}

// MARK: - Send

/// Sends actions from an effect's operation back into its store, on the main actor; it does
/// nothing once the effect is cancelled or the store is gone.
/// ```swift
/// return .run { send in
///   for await value in values {
///     await send(.received(value))
///   }
/// }
/// ```
public struct Send<Action: Sendable>: Sendable {
  /// The effect that sends, and its store's way in, the same for all its effects.
  let job: Job
  let deliver: @MainActor @Sendable (Action, Job) -> Void

  /// Sends `action`, unless the effect was cancelled; the store reduces it before this returns.
  @MainActor public func callAsFunction(_ action: Action) {
    // NB: A cancelled operation may still get here; cancellation must win.
    guard !Task.isCancelled else { return }
    deliver(action, job)
  }
}

extension Send {
  init<Parent>(_ parent: Send<Parent>, _ transform: @escaping @Sendable (Action) -> Parent) {
    self.init(job: parent.job) { action, job in parent.deliver(transform(action), job) }
  }
}

// MARK: - The effect description

extension Effect {
  // NB: Only `send` and `run` are `indirect`: then the enum's layout does not depend on `Action`,
  // telling its case needs no type lookup at run time, and an action may carry an effect.
  enum Operation: Sendable {
    case none
    indirect case send(Action)
    indirect case run(TaskPriority?, Body, Handler?)
    case cancel(EffectID)
    /// Misuse an embedding found while reducing, for the store's reporter.
    indirect case report(String)
    case cancellable(EffectID, cancelInFlight: Bool, Parts)
    case merge(Parts)
    case concatenate(Parts)
  }

  typealias Body = @concurrent @Sendable (Send<Action>) async throws -> Void
  typealias Handler = @concurrent @Sendable (any Error, Send<Action>) async -> Void

  /// The parts of a composite effect: a `cancellable`'s one part is `first`, with no array.
  // NB: `deinit` releases a deep tree in a loop, not recursively; the parts change only there.
  nonisolated final class Parts: @unchecked Sendable {
    private(set) var first: Effect
    private(set) var others: [Effect]
    let height: Int

    init(_ first: Effect, _ others: [Effect], height: Int? = nil) {
      (self.first, self.others) = (first, others)
      self.height = height ?? 1 + ([first] + others).map { $0.parts?.height ?? 0 }.max()!
    }

    convenience init(_ effects: [Effect]) { self.init(effects[0], Array(effects.dropFirst())) }
    var effects: [Effect] { [first] + others }

    deinit {
      // NB: A shallow tree, the usual one, goes the ordinary way, with no type lookups.
      guard height > 64 else { return }
      var pending = effects
      (first, others) = (.none, [])
      while var effect = pending.popLast() {
        guard var parts = effect.parts else { continue }
        effect = .none
        guard isKnownUniquelyReferenced(&parts) else { continue }
        pending += parts.effects
        (parts.first, parts.others) = (.none, [])
      }
    }
  }

  nonisolated var parts: Parts? {
    switch operation {
    case .cancellable(_, _, let parts), .merge(let parts), .concatenate(let parts): parts
    default: nil
    }
  }

  var isNone: Bool { if case .none = operation { true } else { false } }

  // NB: `isolation: nil` runs this and the operation on the global executor in every compile mode.
  static func perform(
    _ body: Body, _ handler: Handler?, _ send: Send<Action>, startedBy origin: Action,
    isolation: isolated (any Actor)? = nil
  ) async {
    do {
      try await body(send)
    } catch {
      // NB: Cancellation is silent: an error thrown because of it is no failure.
      guard !(error is CancellationError), !Task.isCancelled else { return }
      guard let handler else {
        return miniReduxReport(
          "MiniRedux: an effect started by \(origin) threw \(error), and it has no catch: "
            + "handler. Pass `catch:` to .run to turn errors into actions.")
      }
      await handler(error, send)
    }
  }
}

/// A cancellation id, compared by its type and its value.
// NB: A box hashes the value once, when the id is made, and compares it with no dynamic cast. The
// value is `sending`, not `Sendable`: hashed in its maker's isolation, then only compared.
struct EffectID: Hashable, Sendable {
  private let box: IDBox
  init<Value: Hashable>(_ value: sending Value) { box = TypedIDBox(value, place: nil) }

  /// The id of an embedded child's effects, named by its place.
  init(_ place: Place) {
    // NB: Sound: the array of two `AnyHashable`s is made here, then only hashed and compared.
    nonisolated(unsafe) let value = [place.scope, place.key]
    box = TypedIDBox(value, place: place)
  }

  /// Where the child whose effects run under this id is, if it is an embedded child's id.
  var place: Place? { box.place }

  /// Where an embedded child is: its embedding (`scope`), its `key` there, and `keys`, a
  /// `(State) -> (AnyHashable) -> Bool` that tells, from a state of the store that embeds it,
  /// which keys of that embedding are present.
  struct Place {
    let scope: AnyHashable
    let key: AnyHashable
    let keys: Any
  }

  static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.box === rhs.box || (lhs.box.hash == rhs.box.hash && lhs.box.isEqual(to: rhs.box))
  }

  func hash(into hasher: inout Hasher) { hasher.combine(box.hash) }
}

// NB: Unchecked, as a place's `keys` is not `Sendable`: only a store's runtime calls it, on the
// main actor.
private class IDBox: @unchecked Sendable {
  let hash: Int
  let place: EffectID.Place?
  init(hash: Int, place: EffectID.Place?) { (self.hash, self.place) = (hash, place) }
  func isEqual(to other: IDBox) -> Bool { preconditionFailure("MiniRedux: IDBox is abstract") }
}

private final class TypedIDBox<Value: Hashable>: IDBox, @unchecked Sendable {
  let value: Value

  init(_ value: sending Value, place: EffectID.Place?) {
    var hasher = Hasher()
    hasher.combine(ObjectIdentifier(Value.self))
    hasher.combine(value)
    self.value = value
    super.init(hash: hasher.finalize(), place: place)
  }

  override func isEqual(to other: IDBox) -> Bool {
    guard type(of: other) == Self.self else { return false }
    return value == unsafeDowncast(other, to: Self.self).value
  }
}

// MARK: - Bookkeeping

// How a store keeps track of its effects. Two relations, and no third:
// - Causation: a `send` and everything its effects sent back is one `Cause`, which a `StoreTask`
//   waits for and cancels. Each effect in flight, and each action queued, counts in one cause.
// - Containment: an effect in flight (a `Job`) is registered under the ids of the `cancellable`s
//   around it (`Registry`), and one in a concatenation's step counts in that concatenation (its
//   `parent`), which moves on when its step's count drops to zero.
// An action an effect sends joins the effect's cause, never its containers: what it starts is
// not part of the effect.

/// One `send` and everything its effects sent back: what a ``StoreTask`` waits for and cancels.
@MainActor final class Cause {
  /// The effects in flight and the actions queued.
  private(set) var count = 0
  /// Whether ``cancel()`` was called: nothing new starts, nothing queued is reduced.
  private(set) var isCancelled = false
  private var finishedOne = false
  /// The effects in flight, listed through `Job.next`.
  private var first: Job?
  private(set) weak var registry: Registry?
  /// The tasks waiting in ``wait()``, each resumed once: by `leave`, or by its cancellation.
  private var waiters: [(id: Int, continuation: UnsafeContinuation<Void, Never>)] = []
  private var nextWaiterID = 0
  init(_ registry: Registry) { self.registry = registry }

  /// Whether ``cancel()`` was called, or every effect was cancelled before one finished.
  var isCancelledOrEveryEffectCancelled: Bool {
    var job = first
    while let current = job, current.phase != .running { job = current.next }
    return isCancelled || !finishedOne && job == nil
  }

  func add(_ job: Job) {
    job.next = first
    first?.previous = job
    first = job
    enter()
  }

  func remove(_ job: Job, finished: Bool) {
    finishedOne = finishedOne || finished
    if let previous = job.previous { previous.next = job.next } else { first = job.next }
    job.next?.previous = job.previous
    (job.next, job.previous) = (nil, nil)
    leave()
  }

  func enter() { count += 1 }

  func leave() {
    count -= 1
    guard count == 0 else { return }
    // NB: A resumed waiter runs later, so that none can change the list meanwhile.
    for waiter in waiters { waiter.continuation.resume() }
    waiters = []
  }

  func cancel() {
    isCancelled = true
    var job = first
    while let current = job {
      job = current.next
      if current.cancel() { registry?.unregister(current, cancellingTask: true) }
    }
  }

  /// Returns once nothing is left; if the waiting task is cancelled, at once, cancelling the rest.
  func wait() async {
    guard count > 0 else { return }
    let id = nextWaiterID
    nextWaiterID += 1
    await withTaskCancellationHandler {
      // NB: Unsafe, as a checked one costs 4% of a round trip (S3); sound, as each is in
      // `waiters` once, and taken out as it is resumed. An array, not a dictionary: 2% more.
      await withUnsafeContinuation { waiters.append((id, $0)) }
    } onCancel: {
      Task { @MainActor in
        self.cancel()
        guard let index = self.waiters.firstIndex(where: { $0.id == id }) else { return }
        self.waiters.remove(at: index).continuation.resume()
      }
    }
  }
}

/// One effect in flight: a `.run` and its task, or a concatenation and its current step.
@MainActor final class Job {
  /// Moves on only through ``cancel()`` and ``end()``. `running`: registered, what it sends is
  /// reduced. `cancelled`: unregistered, dropping what it sends until it ends. `ended`: out of its
  /// cause and its concatenation's step; a send after a normal end is misuse.
  enum Phase: Equatable { case running, cancelled, ended(wasCancelled: Bool) }

  let cause: Cause
  /// The concatenation whose current step this effect is part of.
  // NB: Changed only by `deinit`, while no one else holds either job.
  nonisolated(unsafe) private(set) var parent: Job?
  /// The ids of the `cancellable`s around it.
  let ids: [EffectID]
  private(set) var phase = Phase.running
  /// For a concatenation, the effects of its current step in flight.
  var stepCount = 0
  /// Its index in its registry, and its neighbours in its cause's list.
  var slot = -1
  var next: Job?
  // NB: Unowned, as the cause's list keeps it alive through `next`.
  unowned var previous: Job?

  init(cause: Cause, parent: Job?, ids: [EffectID]) {
    (self.cause, self.parent, self.ids) = (cause, parent, ids)
    cause.add(self)
    parent?.stepCount += 1
  }

  // NB: Releases a long chain of concatenations in a loop, not a stack frame a link.
  deinit {
    var next = parent.take()
    while var job = next.take(), isKnownUniquelyReferenced(&job) { next = job.parent.take() }
  }

  /// Returns whether the effect was running: then the caller unregisters it and cancels its task.
  func cancel() -> Bool {
    guard phase == .running else { return false }
    phase = .cancelled
    return true
  }

  /// Leaves the cause and the step; returns whether it was running: then the caller unregisters it.
  func end() -> Bool {
    if case .ended = phase { preconditionFailure("Internal inconsistency in MiniRedux") }
    let wasRunning = phase == .running
    phase = .ended(wasCancelled: !wasRunning)
    cause.remove(self, finished: wasRunning)
    parent?.stepCount -= 1
    return wasRunning
  }

  /// Ends a returned `.run`; with its store gone, also the concatenations whose step it empties.
  func operationReturned() {
    if let registry = cause.registry { return registry.end(self) }
    var job: Job? = self
    while let current = job {
      _ = current.end()
      job = current.parent.flatMap { $0.stepCount == 0 ? $0 : nil }
    }
  }
}

/// The effects of one store in flight, by id; released with its store, it cancels them.
@usableFromInline @MainActor final class Registry {
  /// NB: `deinit` may read only `Sendable` values, so the tasks are here, each at its job's slot.
  private var jobs: [(job: Job, task: Task<Void, Never>?)] = []
  /// The jobs under each id: the first inline, as most ids cover one job at a time.
  private var byID: [EffectID: (first: Job, others: [ObjectIdentifier: Job])] = [:]
  /// The embedded children with effects in flight: their ids, by embedding and key.
  private(set) var children: [AnyHashable: [AnyHashable: EffectID]] = [:] {
    didSet { hasChildren = !children.isEmpty }
  }
  // NB: A flag, as each reduction reads it: the dictionary's accesses are checked at run time
  // (its hashing calls unknown code), which would cost 7% of a plain send.
  private(set) var hasChildren = false
  /// Moves on a concatenation whose step has ended; set by the store's runtime.
  var stepEnded: @MainActor (Job) -> Void = { _ in }
  /// Where a test store runs effects' operations: a `TestExecutor`.
  var executor: AnyObject?
  /// Where an embedding reports an action for a child that is gone; a `TestStore` records it.
  var report: @MainActor (String) -> Void = { miniReduxReport($0) }
  var snapshot: (effects: Int, ids: Int) { (jobs.count, byID.count + children.count) }

  deinit { for entry in jobs { entry.task?.cancel() } }

  func register(_ job: Job, task: Task<Void, Never>?) {
    job.slot = jobs.count
    jobs.append((job, task))
    for id in job.ids {
      // NB: Only `first` read, not a copy of `others`, which the write would then copy whole.
      guard let first = byID[id]?.first else {
        byID[id] = (job, [:])
        if let place = id.place { children[place.scope, default: [:]][place.key] = id }
        continue
      }
      // NB: An id twice around one effect registers it once.
      if first !== job { byID[id]!.others[.init(job)] = job }
    }
  }

  func unregister(_ job: Job, cancellingTask: Bool) {
    let slot = job.slot
    guard slot >= 0 else { return }
    if cancellingTask { jobs[slot].task?.cancel() }
    let last = jobs.removeLast()
    if slot < jobs.count { (jobs[slot], last.job.slot) = (last, slot) }
    job.slot = -1
    for id in job.ids {
      guard var members = byID.removeValue(forKey: id) else { continue }
      if members.first !== job {
        members.others[.init(job)] = nil
      } else if let next = members.others.popFirst()?.value {
        members.first = next
      }
      if members.first !== job {
        byID[id] = members
      } else if let place = id.place {  // The id's last job: the id is gone.
        children[place.scope]?[place.key] = nil
        if children[place.scope]?.isEmpty == true { children[place.scope] = nil }
      }
    }
    // NB: Emptied, they keep a small buffer, not the largest burst ever.
    if jobs.isEmpty, jobs.capacity > 16 { (jobs, byID, children) = ([], [:], [:]) }
  }

  /// Stops listing the children of the embedding `scope`, which a store cannot find in its state.
  func forget(_ scope: AnyHashable) { children[scope] = nil }

  /// Takes an effect that ended out of its cause, the registry and its concatenation's step.
  func end(_ job: Job) {
    if job.end() { unregister(job, cancellingTask: false) }
    if let parent = job.parent, parent.stepCount == 0 { stepEnded(parent) }
  }

  /// Cancels every effect running under `id` but the concatenations that `step` is part of.
  func cancel(_ id: EffectID, around step: Job?) {
    // NB: Over a copy, as cancelling one unregisters it.
    guard let members = byID[id] else { return }
    func cancelUnlessEnclosing(_ job: Job) {
      var outer = step
      while let enclosing = outer, enclosing !== job { outer = enclosing.parent }
      if outer == nil, job.cancel() { unregister(job, cancellingTask: true) }
    }
    cancelUnlessEnclosing(members.first)
    for job in members.others.values { cancelUnlessEnclosing(job) }
  }
}

// How `scope`, `ifLet` and `forEach` embed a child: its effects run under an id made of its place
// (its embedding and its key there), and the ids inside are renamed into it, so that they are its
// own. A place says how to tell, from the state of the store that embeds it, whether the child is
// there; renaming on the way out composes that test for the places inside, so that the root store
// can tell from its own state, after each reduction, which children with effects in flight are
// gone, whoever removed them.
extension Registry {
  /// Returns `effect`, a child's, embedded at `path` under `key`: its actions sent through
  /// `embed`, its places renamed into this one, and, if it `owns` its effects, all of it under
  /// its place's id.
  /// - Parameters:
  ///   - child: The child's state in a state of the embedding store, if it is there.
  ///   - keys: Which keys of this embedding a state of the embedding store holds.
  @usableFromInline static func embed<State, ChildState, Action, ChildAction>(
    _ effect: Effect<ChildAction>, _ embed: @escaping @Sendable (ChildAction) -> Action,
    at path: AnyKeyPath, key: AnyHashable, owns: Bool = true,
    child: @escaping (State) -> ChildState?,
    keys: @escaping (State) -> (AnyHashable) -> Bool
  ) -> Effect<Action> {
    let id = EffectID(.init(scope: path, key: key, keys: keys))
    let embedded = effect.map(embed) { inner in
      // NB: A child of `scope` has its parent's effects; the places inside are renamed all the
      // same, as two scoped children of one type have children of their own.
      guard let place = inner.place else { return owns ? EffectID([id, inner]) : inner }
      // NB: Not one of the child's state's places: the store reports it once it runs.
      guard let keys = place.keys as? (ChildState) -> (AnyHashable) -> Bool else { return inner }
      let outerKeys: (State) -> (AnyHashable) -> Bool = { state in
        child(state).map(keys) ?? { _ in false }
      }
      return EffectID(.init(scope: [AnyHashable(id), place.scope], key: place.key, keys: outerKeys))
    }
    return owns ? embedded.cancellable(id) : embedded
  }

  /// Who a present child is: the same while present, and, if `Identifiable`, while its `id` is.
  @usableFromInline static func key<Child>(of child: Child?) -> AnyHashable? {
    child.map { ($0 as? any Identifiable).map { id(of: $0) } ?? AnyHashable(true) }
  }

  private static func id(of child: some Identifiable) -> AnyHashable { child.id }

  /// An effect that reports `action` dropped, as `reason`: the child it is for is gone.
  @usableFromInline static func drop<Action>(_ action: Action, _ reason: String) -> Effect<Action> {
    Effect(
      operation: .report(
        "MiniRedux: dropped \(Dump.line(action)), as \(reason): the child it is for is gone. A "
          + "view that sends after its child was dismissed or removed is the usual cause."))
  }
}

/// Where MiniRedux reports misuse and uncaught errors: standard error, unless a test replaces it.
/// A report that `fails` also makes the process exit with status 1 at its end: `swift test` fails.
nonisolated let miniReduxReporter = TaskLocal<@Sendable (String, _ fails: Bool) -> Void>(
  wrappedValue: { message, fails in
    var line = message + "\n"
    #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
      line.withUTF8 { bytes in _ = write(STDERR_FILENO, bytes.baseAddress, bytes.count) }
      if fails { _ = failingAtExit }
    #else
      print(line, terminator: "")
    #endif
  })

nonisolated func miniReduxReport(_ message: String, fails: Bool = false) {
  miniReduxReporter.get()(message, fails)
}

#if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
  nonisolated private let failingAtExit: Void = {
    atexit {
      fflush(nil)
      _exit(1)
    }
  }()
#endif

#if canImport(Combine)
  extension Effect {
    /// An effect sending each value `createPublisher()` emits, until it completes or is cancelled.
    /// ```swift
    /// case .listen:
    ///   return .publisher { [1, 2, 3].publisher.map(Action.heard) }
    /// ```
    public static func publisher<P: Publisher>(
      _ createPublisher: @escaping @Sendable () -> P
    ) -> Self where P.Output == Action, P.Failure == Never {
      .run { send in
        let actions = AsyncStream<Action> { continuation in
          // NB: The subscription is touched only here and in onTermination, which Combine and
          // AsyncStream order; AnyCancellable is not Sendable.
          nonisolated(unsafe) let subscription = createPublisher().sink(
            receiveCompletion: { _ in continuation.finish() },
            receiveValue: { continuation.yield($0) })
          continuation.onTermination = { _ in subscription.cancel() }
        }
        for await action in actions { await send(action) }
      }
    }
  }
#endif
