//===- RegionWalkTest.cpp - The one walker over structured control flow ---===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// A client whose state is the trace of one path (the tags of the "t.op"s it
// ran) and whose merge writes the exits as [a|b|...]: the trace of a walk
// spells out which regions ran, in which order, and where control left.
//
//===----------------------------------------------------------------------===//

#include "DsaPlan/Support/RegionWalk.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace mlir::dsaplan;

namespace {

class TraceClient : public RegionWalkClient<std::string> {
public:
  WalkStep step(Operation &op, std::string &trace) {
    if (op.getName().getStringRef() == "t.op") {
      trace += op.getAttrOfType<StringAttr>("tag").getValue().str();
      return WalkStep::Done;
    }
    return op.getNumRegions() ? WalkStep::Enter : WalkStep::Done;
  }
  std::optional<std::string> merge(ArrayRef<std::string> exits,
                                   Operation *) {
    return "[" + llvm::join(exits, "|") + "]";
  }
  void beginIteration(Operation &, unsigned iteration, std::string &) {
    iterations.push_back(iteration);
  }
  void endLoop(Operation &) { ++loops; }
  void leaveBlock(Block &, std::string &trace) { blockEnds.push_back(trace); }

  SmallVector<unsigned> iterations;
  unsigned loops = 0;
  /// The trace at the end of each block walked, in the order they ended.
  SmallVector<std::string> blockEnds;
};

class RegionWalkTest : public ::testing::Test {
protected:
  RegionWalkTest() {
    context.loadDialect<arith::ArithDialect, func::FuncDialect,
                        scf::SCFDialect>();
    context.allowUnregisteredDialects();
  }

  /// The body of @f in `source` walked from an empty trace.
  std::string walk(StringRef source, unsigned iterations) {
    module = parseSourceString<ModuleOp>(source, &context);
    EXPECT_TRUE(module);
    auto func = cast<func::FuncOp>(module->getBody()->front());
    std::string trace;
    EXPECT_TRUE((RegionWalker<TraceClient, std::string>(client, iterations)
                     .walkBlock(func.getBody().front(), trace)));
    return trace;
  }

  /// The first op named `name` in the parsed module.
  Operation *find(StringRef name) {
    Operation *found = nullptr;
    module->walk([&](Operation *op) {
      if (!found && op->getName().getStringRef() == name)
        found = op;
    });
    return found;
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  TraceClient client;
};

TEST_F(RegionWalkTest, ExactlyOneRegionRuns) {
  std::string trace = walk(R"mlir(
    func.func @f(%c: i1, %i: index) {
      "t.op"() {tag = "a"} : () -> ()
      scf.if %c {
        "t.op"() {tag = "t"} : () -> ()
      } else {
        "t.op"() {tag = "e"} : () -> ()
      }
      scf.if %c {
        "t.op"() {tag = "o"} : () -> ()
      }
      scf.index_switch %i
      case 0 {
        "t.op"() {tag = "x"} : () -> ()
        scf.yield
      }
      default {
        "t.op"() {tag = "y"} : () -> ()
        scf.yield
      }
      return
    })mlir", 2);
  // Each branch from the state before the op, in region order (an
  // scf.index_switch's default region is its first); no else: the state
  // before the op.
  EXPECT_EQ(trace, "[[[at|ae]o|[at|ae]]y|[[at|ae]o|[at|ae]]x]");
  EXPECT_EQ(getControlKind(find("scf.if")), ControlKind::OneOf);
  EXPECT_EQ(getControlKind(find("scf.index_switch")), ControlKind::OneOf);
  EXPECT_FALSE(mayRunNoRegion(find("scf.if")));
  EXPECT_FALSE(mayRunNoRegion(find("scf.index_switch")));
  EXPECT_TRUE(client.iterations.empty());
}

TEST_F(RegionWalkTest, ForLeavesBeforeAnyIterationOrAfterEach) {
  std::string trace = walk(R"mlir(
    func.func @f(%n: index) {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      scf.for %i = %c0 to %n step %c1 {
        "t.op"() {tag = "b"} : () -> ()
      }
      "t.op"() {tag = "z"} : () -> ()
      return
    })mlir", 3);
  EXPECT_EQ(trace, "[|b|bb|bbb]z");
  EXPECT_EQ(client.iterations, (SmallVector<unsigned>{0, 1, 2}));
  EXPECT_EQ(client.loops, 1u);
  EXPECT_EQ(getControlKind(find("scf.for")), ControlKind::Loop);
  EXPECT_TRUE(mayRunNoRegion(find("scf.for")));
}

TEST_F(RegionWalkTest, WhileLeavesAfterEachBeforeRegion) {
  std::string trace = walk(R"mlir(
    func.func @f(%c: i1) {
      scf.while : () -> () {
        "t.op"() {tag = "c"} : () -> ()
        scf.condition(%c)
      } do {
        "t.op"() {tag = "d"} : () -> ()
        scf.yield
      }
      return
    })mlir", 2);
  // The "do" region runs after each "before", the exits are after "before".
  EXPECT_EQ(trace, "[c|cdc]");
  EXPECT_EQ(client.iterations, (SmallVector<unsigned>{0, 1}));
  EXPECT_FALSE(mayRunNoRegion(find("scf.while")));
}

TEST_F(RegionWalkTest, SequenceRunsItsRegionOnce) {
  std::string trace = walk(R"mlir(
    func.func @f() {
      scf.execute_region {
        "t.op"() {tag = "s"} : () -> ()
        scf.yield
      }
      "t.op"() {tag = "z"} : () -> ()
      return
    })mlir", 3);
  EXPECT_EQ(trace, "sz");
  EXPECT_EQ(getControlKind(find("scf.execute_region")), ControlKind::Sequence);
  EXPECT_FALSE(mayRunNoRegion(find("scf.execute_region")));
}

TEST_F(RegionWalkTest, NestedLoopsUnrollEachLevel) {
  std::string trace = walk(R"mlir(
    func.func @f(%n: index, %c: i1) {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      scf.for %i = %c0 to %n step %c1 {
        scf.if %c {
          "t.op"() {tag = "a"} : () -> ()
        }
      }
      return
    })mlir", 2);
  EXPECT_EQ(trace, "[|[a|]|[[a|]a|[a|]]]");
  EXPECT_EQ(client.loops, 1u);
}

TEST_F(RegionWalkTest, LeaveBlockFollowsEachBlocksLastOp) {
  std::string trace = walk(R"mlir(
    func.func @f(%n: index, %c: i1) {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      "t.op"() {tag = "a"} : () -> ()
      scf.for %i = %c0 to %n step %c1 {
        scf.if %c {
          "t.op"() {tag = "t"} : () -> ()
        } else {
          "t.op"() {tag = "e"} : () -> ()
        }
        "t.op"() {tag = "b"} : () -> ()
      }
      "t.op"() {tag = "z"} : () -> ()
      return
    })mlir", 1);
  EXPECT_EQ(trace, "[a|[at|ae]b]z");
  // Inner blocks end before the block holding them, each with its own
  // path's state; the function's block ends last, after its last op.
  EXPECT_EQ(client.blockEnds, (SmallVector<std::string>{
                                  "at", "ae", "[at|ae]b", "[a|[at|ae]b]z"}));
}

} // namespace
