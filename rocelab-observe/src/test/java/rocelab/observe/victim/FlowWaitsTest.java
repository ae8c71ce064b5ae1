package rocelab.observe.victim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A flow's waits behind more roots, or at more hops, than it keeps apart: the rest are told together, named by none,
 * so that no root or hop is given another's waits, and every wait is still counted once, on or off the flow's way as
 * its own root decided.
 */
class FlowWaitsTest {
    /** Roots at even nodes are on the flow's way, at odd nodes off it. */
    private static final FlowWaits.RootPlace EVEN_ON_WAY = (qp, kind, node, port) -> FlowWaits.Way.of(node % 2 == 0);

    /** Flow 7 waits at one hop behind roots at nodes 10, 11, ..., the k-th for 10 * (k + 1) ps, one after another. */
    private static void waitBehindRoots(FlowWaits w, int roots) {
        long clock = 0;
        for (int k = 0; k < roots; k++) {
            long wait = 10L * (k + 1);
            w.add(7, 0, 100, 1, false, clock, clock + wait, 0, 10 + k, 2, 1 + k % 3);
            clock += wait;
        }
    }

    @Test
    void shouldTellTheWaitsBehindRootsBeyondThoseKeptApartTogetherSplitByTheirOwnPlace() {
        FlowWaits w = new FlowWaits(EVEN_ON_WAY, 4);
        waitBehindRoots(w, 6);
        List<FlowWaits.Root> roots = w.roots(7);
        // The first three named, each with its own wait only.
        assertThat(roots.stream().filter(r -> !r.others())).extracting(FlowWaits.Root::node, FlowWaits.Root::waitPs,
                FlowWaits.Root::onPath).containsExactlyInAnyOrder(org.assertj.core.groups.Tuple.tuple(10, 10L, true),
                        org.assertj.core.groups.Tuple.tuple(11, 20L, false),
                        org.assertj.core.groups.Tuple.tuple(12, 30L, true));
        // Roots 13, 14, 15 (40, 50, 60 ps): 14 on its way, 13 and 15 off it.
        assertThat(roots.stream().filter(FlowWaits.Root::others)).extracting(FlowWaits.Root::waitPs,
                FlowWaits.Root::onPath, FlowWaits.Root::node).containsExactlyInAnyOrder(
                        org.assertj.core.groups.Tuple.tuple(100L, false, -1),
                        org.assertj.core.groups.Tuple.tuple(50L, true, -1));
        assertThat(roots).extracting(FlowWaits.Root::waitPs).isSortedAccordingTo((a, b) -> Long.compare(b, a));
        assertThat(roots.stream().mapToLong(FlowWaits.Root::waitPs).sum()).isEqualTo(w.waitPs(7)).isEqualTo(210);
        assertThat(w.offPathWaitPs(7)).isEqualTo(120);
        assertThat(w.rootsKeptApart()).isEqualTo(3);
    }

    /**
     * A root not known yet (its log had not been told where the hold was rooted) is neither on the flow's way nor off
     * it: its waits are no victim's, and beyond the roots kept apart they are told apart from both.
     */
    @Test
    void shouldTellTheWaitsBehindRootsNotKnownYetApartFromThoseOnAndOffTheWay() {
        // Roots at nodes 10, 13, ... on the way, 11, 14, ... off it, 12, 15, ... not known.
        FlowWaits w = new FlowWaits((qp, kind, node, port) -> switch (node % 3) {
            case 1 -> FlowWaits.Way.ON;
            case 2 -> FlowWaits.Way.OFF;
            default -> FlowWaits.Way.NOT_KNOWN;
        }, 4);
        waitBehindRoots(w, 9);
        List<FlowWaits.Root> roots = w.roots(7);
        assertThat(roots.stream().filter(r -> !r.others())).extracting(FlowWaits.Root::node, FlowWaits.Root::way)
                .containsExactlyInAnyOrder(org.assertj.core.groups.Tuple.tuple(10, FlowWaits.Way.ON),
                        org.assertj.core.groups.Tuple.tuple(11, FlowWaits.Way.OFF),
                        org.assertj.core.groups.Tuple.tuple(12, FlowWaits.Way.NOT_KNOWN));
        // Roots 13..18 (40..90 ps): 13 and 16 on its way, 14 and 17 off it, 15 and 18 not known.
        assertThat(roots.stream().filter(FlowWaits.Root::others)).extracting(FlowWaits.Root::waitPs,
                FlowWaits.Root::way).containsExactlyInAnyOrder(
                        org.assertj.core.groups.Tuple.tuple(110L, FlowWaits.Way.ON),
                        org.assertj.core.groups.Tuple.tuple(130L, FlowWaits.Way.OFF),
                        org.assertj.core.groups.Tuple.tuple(150L, FlowWaits.Way.NOT_KNOWN));
        assertThat(roots.stream().filter(r -> r.way() == FlowWaits.Way.NOT_KNOWN))
                .noneMatch(FlowWaits.Root::onPath).noneMatch(FlowWaits.Root::offPath);
        assertThat(w.offPathWaitPs(7)).as("off its way: 11, 14, 17").isEqualTo(20 + 50 + 80);
        assertThat(w.waitPs(7)).isEqualTo(450);
    }

    /**
     * A link event reroutes a flow onto the port a root names: its waits behind that root from then on are on its own
     * way, and only those before are a victim's (the place was once decided by the first wait behind the root alone).
     */
    @Test
    void shouldDecideARootsPlaceAgainForEveryWaitOnceTheRoutesHaveChanged() {
        boolean[] onWay = {false};
        FlowWaits w = new FlowWaits((qp, kind, node, port) -> FlowWaits.Way.of(onWay[0]));
        w.add(7, 0, 100, 1, false, 0, 30, 0, 10, 2, 1);
        w.add(7, 0, 100, 1, false, 30, 50, 0, 10, 2, 1);
        onWay[0] = true;
        w.routesChanged();
        w.add(7, 0, 100, 1, false, 50, 450, 0, 10, 2, 1);
        assertThat(w.offPathWaitPs(7)).as("only the waits before the reroute").isEqualTo(50);
        assertThat(w.waitPs(7)).isEqualTo(450);
        assertThat(w.roots(7)).extracting(FlowWaits.Root::node, FlowWaits.Root::waitPs, FlowWaits.Root::way)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(10, 400L, FlowWaits.Way.ON),
                        org.assertj.core.groups.Tuple.tuple(10, 50L, FlowWaits.Way.OFF));
        assertThat(w.waits(7)).singleElement().extracting(FlowWaits.Hop::offPathWaitPs).isEqualTo(50L);
    }

    /** Without a route change a root keeps the place its first wait found (asked once per root, not per wait). */
    @Test
    void shouldAskARootsPlaceOnceWhileTheRoutesStand() {
        int[] asked = {0};
        FlowWaits w = new FlowWaits((qp, kind, node, port) -> {
            asked[0]++;
            return FlowWaits.Way.OFF;
        });
        for (int k = 0; k < 5; k++) {
            w.add(7, 0, 100, 1, false, 10L * k, 10L * k + 10, 0, 10, 2, 1);
        }
        assertThat(asked[0]).isEqualTo(1);
        assertThat(w.offPathWaitPs(7)).isEqualTo(50);
    }

    @Test
    void shouldNameNoRootForAnothersWaitsWhenAFlowMeetsMoreThanEight() {
        FlowWaits w = new FlowWaits(EVEN_ON_WAY);
        waitBehindRoots(w, 10);
        for (FlowWaits.Root r : w.roots(7)) {
            if (!r.others()) {
                // Root at node 10 + k waited 10 * (k + 1) ps, no more, and kept its first, fewest and most hops.
                assertThat(r.waitPs()).as("root at node %d", r.node()).isEqualTo(10L * (r.node() - 9));
                assertThat(r.hops()).isEqualTo(1 + (r.node() - 10) % 3);
                assertThat(r.minHops()).isEqualTo(r.hops());
                assertThat(r.maxHops()).isEqualTo(r.hops());
            }
        }
        assertThat(w.roots(7).stream().filter(r -> !r.others())).hasSize(7);
        // Roots 17, 18, 19 (80, 90, 100 ps): 18 on the way.
        assertThat(w.roots(7).stream().filter(FlowWaits.Root::others)).extracting(FlowWaits.Root::waitPs)
                .containsExactlyInAnyOrder(180L, 90L);
    }

    @Test
    void shouldKeepTheFewestAndMostHopsOfANamedRoot() {
        FlowWaits w = new FlowWaits(EVEN_ON_WAY, 2);
        w.add(7, 0, 100, 1, false, 0, 10, 0, 10, 2, 3);
        w.add(7, 0, 100, 1, false, 10, 20, 0, 10, 2, 1);
        w.add(7, 0, 100, 1, false, 20, 30, 0, 10, 2, 5);
        assertThat(w.roots(7)).singleElement().satisfies(r -> {
            assertThat(r.hops()).isEqualTo(3);
            assertThat(r.minHops()).isEqualTo(1);
            assertThat(r.maxHops()).isEqualTo(5);
            assertThat(r.waitPs()).isEqualTo(30);
        });
    }

    @Test
    void shouldTellTheWaitsAtHopsBeyondTheSeventhTogetherNamedByNone() {
        FlowWaits w = new FlowWaits(EVEN_ON_WAY);
        for (int k = 0; k < 10; k++) {
            w.add(7, 0, 100 + k, 1, false, 0, 10, 0, 11, 2, 1);
        }
        // A second wait at the latest of the rest, overlapping its first: counted once.
        w.add(7, 0, 109, 1, false, 5, 12, 0, 11, 2, 1);
        List<FlowWaits.Hop> hops = w.waits(7);
        assertThat(hops).hasSize(8);
        for (int k = 0; k < 7; k++) {
            assertThat(hops.get(k).node()).isEqualTo(100 + k);
            assertThat(hops.get(k).waitPs()).isEqualTo(10);
            assertThat(hops.get(k).others()).isFalse();
        }
        assertThat(hops.get(7).others()).isTrue();
        assertThat(hops.get(7).node()).isEqualTo(-1);
        assertThat(hops.get(7).waitPs()).isEqualTo(32);
        assertThat(w.waitPs(7)).isEqualTo(102);
    }

    @Test
    void shouldKeepEveryWaitWhenMoreFlowsWaitAtMoreHopsThanExpected() {
        FlowWaits w = new FlowWaits(EVEN_ON_WAY, 4);
        w.expectFlows(3);
        int flows = 40;
        for (int round = 0; round < 10; round++) {
            for (int f = 0; f < flows; f++) {
                // Flow f waits (f + 1) ps at hop `round`, behind root 10 + round.
                w.add(f, f, 100 + round, 1, false, 0, f + 1, 0, 10 + round, 2, 1);
            }
        }
        for (int f = 0; f < flows; f++) {
            assertThat(w.waitPs(f)).as("flow %d", f).isEqualTo(10L * (f + 1));
            assertThat(w.waits(f)).hasSize(8);
            assertThat(w.roots(f).stream().mapToLong(FlowWaits.Root::waitPs).sum()).isEqualTo(10L * (f + 1));
            // Roots 11, 13, 15, 17, 19 are off the way; 11 is named, 13..19 in the rest.
            assertThat(w.offPathWaitPs(f)).isEqualTo(5L * (f + 1));
        }
    }

    @Test
    void shouldReadTheLastFlowsOfItsRoomWithEverySlotTaken() {
        // Sixteen flows fill the first room exactly; each waits at nine hops behind nine roots.
        FlowWaits w = new FlowWaits(EVEN_ON_WAY);
        for (int f = 0; f < 16; f++) {
            for (int k = 0; k < 9; k++) {
                w.add(f, f, 100 + k, 1, false, 0, 10, 0, 10 + k, 2, 1);
            }
        }
        for (int f = 0; f < 16; f++) {
            assertThat(w.waits(f)).hasSize(8);
            assertThat(w.waitPs(f)).isEqualTo(90);
            assertThat(w.roots(f).stream().mapToLong(FlowWaits.Root::waitPs).sum()).isEqualTo(90);
        }
    }

    @Test
    void shouldRefuseAnOddNumberOfRoots() {
        assertThatThrownBy(() -> new FlowWaits(EVEN_ON_WAY, 3)).isInstanceOf(IllegalArgumentException.class);
    }
}
