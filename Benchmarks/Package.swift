// swift-tools-version: 6.0
import PackageDescription

// NB: A separate package, so the library's own manifest stays free of benchmark targets and
// `swift build` at the root never compiles them. The dependency is named: a path
// dependency is otherwise identified by its folder name, which differs between checkouts.
let package = Package(
  name: "MiniReduxBenchmarks",
  platforms: [.macOS(.v14)],
  dependencies: [
    .package(name: "MiniRedux", path: "..")
  ],
  targets: [
    .executableTarget(
      name: "MiniReduxBenchmarks",
      dependencies: [.product(name: "MiniRedux", package: "MiniRedux"), "CHeap"]
    ),
    // NB: Reads glibc's `mallinfo2()`, which the Glibc Swift module does not export.
    .target(name: "CHeap"),
  ],
  swiftLanguageModes: [.v6]
)
