package rocelab.scenario.sweep;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Every key path a summary.json can hold (docs/outputs.md#summaryjson), list items written {@code []}: what a sweep's
 * {@code metrics} may name, checked before anything runs. Which of them a run writes depends on its scenario (jobs,
 * inference, InfiniBand, a deadlock...), so they are listed here rather than taken from a run; SummaryKeysTest runs
 * scenarios of every kind and checks that each key of their summary.json is listed.
 */
public final class SummaryKeys {
    /** The key paths, sorted. */
    public static final List<String> ALL = List.of("""
            collectives
            collectives[]
            collectives[].algbw_gbytes_per_s
            collectives[].algorithm
            collectives[].busbw_gbytes_per_s
            collectives[].completed
            collectives[].ideal_time_us
            collectives[].name
            collectives[].ranks
            collectives[].runs
            collectives[].size_bytes
            collectives[].start_us
            collectives[].time_us
            counters
            counters.cnp_handled
            counters.cnp_sent
            counters.cnp_sent_unit
            counters.data_bytes_sent
            counters.delivered_bytes
            counters.drops_by_reason
            counters.drops_by_reason.buffer_full
            counters.drops_by_reason.headroom_exceeded
            counters.drops_by_reason.link_down
            counters.drops_by_reason.nic_out_of_buffer
            counters.drops_by_reason.no_route
            counters.drops_by_reason.oversize
            counters.drops_by_reason.pfc_watchdog
            counters.duplicate_request
            counters.ecn_marked
            counters.ecn_marked_arrived
            counters.local_ack_timeouts
            counters.naks_sent
            counters.out_of_sequence
            counters.packets_dropped
            counters.pfc_pause_sent
            counters.pfc_paused_us
            counters.pfc_watchdog_storms
            counters.rate_cuts
            counters.rate_cuts_unit
            counters.retransmitted_packets
            counters.retry_exceeded
            counters.selective_naks_sent
            counters.selective_retransmitted_packets
            data_packets
            ecmp_collision_count
            ecmp_collisions
            ecmp_collisions[]
            ecmp_collisions[].behind
            ecmp_collisions[].behind[]
            ecmp_collisions[].behind[].behind_flow_id
            ecmp_collisions[].behind[].collisions
            ecmp_collisions[].behind[].flow_id
            ecmp_collisions[].collisions
            ecmp_collisions[].ecmp_wait_us
            ecmp_collisions[].flow_count
            ecmp_collisions[].flows
            ecmp_collisions[].flows[]
            ecmp_collisions[].flows[].dst
            ecmp_collisions[].flows[].ecmp_wait_us
            ecmp_collisions[].flows[].flow_id
            ecmp_collisions[].flows[].packets
            ecmp_collisions[].flows[].src
            ecmp_collisions[].idle_left_out_collisions
            ecmp_collisions[].idle_ports
            ecmp_collisions[].idle_ports[]
            ecmp_collisions[].idle_ports[].collisions
            ecmp_collisions[].idle_ports[].port
            ecmp_collisions[].idle_ports[].towards
            ecmp_collisions[].port
            ecmp_collisions[].receiver
            ecmp_collisions[].switch
            ecmp_collisions[].towards
            events
            events_per_second
            finished
            flows
            flows.aggregate_goodput_gbps
            flows.bytes_completed
            flows.bytes_delivered
            flows.completed
            flows.count
            flows.delivered_goodput_gbps
            flows.failed
            flows.fct_us
            flows.fct_us.max
            flows.fct_us.mean
            flows.fct_us.min
            flows.fct_us.p50
            flows.fct_us.p90
            flows.fct_us.p99
            flows.not_posted
            flows.note
            flows.output
            flows.slowdown
            flows.slowdown.max
            flows.slowdown.p50
            flows.slowdown.p99
            flows.slowdown_by_size
            flows.slowdown_by_size.100kb_to_10mb
            flows.slowdown_by_size.100kb_to_10mb.flows
            flows.slowdown_by_size.100kb_to_10mb.not_completed
            flows.slowdown_by_size.100kb_to_10mb.p50
            flows.slowdown_by_size.100kb_to_10mb.p95
            flows.slowdown_by_size.100kb_to_10mb.p99
            flows.slowdown_by_size.above_10mb
            flows.slowdown_by_size.above_10mb.flows
            flows.slowdown_by_size.above_10mb.not_completed
            flows.slowdown_by_size.above_10mb.p50
            flows.slowdown_by_size.above_10mb.p95
            flows.slowdown_by_size.above_10mb.p99
            flows.slowdown_by_size.up_to_100kb
            flows.slowdown_by_size.up_to_100kb.flows
            flows.slowdown_by_size.up_to_100kb.not_completed
            flows.slowdown_by_size.up_to_100kb.p50
            flows.slowdown_by_size.up_to_100kb.p95
            flows.slowdown_by_size.up_to_100kb.p99
            flows.unfinished
            held_alone
            held_alone[]
            held_alone[].flow
            held_alone[].from_us
            held_alone[].link
            held_alone[].link_gbps
            held_alone[].link_utilisation
            held_alone[].notifications
            held_alone[].path_utilisation_max
            held_alone[].rate_held_share
            held_alone[].rate_max_gbps
            held_alone[].rate_min_gbps
            held_alone[].receiver
            held_alone[].sender
            held_alone[].to_us
            held_by_rate
            held_by_rate[]
            held_by_rate[].flows
            held_by_rate[].from_us
            held_by_rate[].link
            held_by_rate[].link_utilisation
            held_by_rate[].path_utilisation_max
            held_by_rate[].paused_wait_us
            held_by_rate[].rate_held_share_max
            held_by_rate[].rate_held_share_min
            held_by_rate[].receiver
            held_by_rate[].to_us
            ib_victim_count
            ib_victims
            ib_victims[]
            ib_victims[].credit_wait_us
            ib_victims[].dst
            ib_victims[].flow_id
            ib_victims[].lost_us
            ib_victims[].notifications_by_mark
            ib_victims[].notifications_by_mark[]
            ib_victims[].notifications_by_mark[].device
            ib_victims[].notifications_by_mark[].held_by_pause
            ib_victims[].notifications_by_mark[].not_apart
            ib_victims[].notifications_by_mark[].notifications
            ib_victims[].notifications_by_mark[].port
            ib_victims[].notifications_by_mark[].waited_there
            ib_victims[].other_roots
            ib_victims[].other_roots[]
            ib_victims[].other_roots[].root
            ib_victims[].other_roots[].root_hops
            ib_victims[].other_roots[].root_wait_us
            ib_victims[].rate_held_us
            ib_victims[].root
            ib_victims[].root_hops
            ib_victims[].root_wait_us
            ib_victims[].slowdown
            ib_victims[].src
            ib_victims[].victim_wait_us
            ib_victims[].waited_at
            ib_victims[].waited_at[]
            ib_victims[].waited_at[].credit_wait_us
            ib_victims[].waited_at[].device
            ib_victims[].waited_at[].packets
            ib_victims[].waited_at[].port
            ib_victims[].waited_at[].victim_wait_us
            ideal_slow_links
            ideal_slow_links.links
            ideal_slow_links.links[]
            ideal_slow_links.links[].delay_us
            ideal_slow_links.links[].link
            ideal_slow_links.links[].others
            ideal_slow_links.links[].rate_gbps
            ideal_slow_links.links[].role
            ideal_slow_links.links[].role_delay_us
            ideal_slow_links.links[].role_rate_gbps
            ideal_slow_links.text
            ideal_slow_links.tiers
            ideal_slow_links.tiers[]
            ideal_slow_links.tiers[].example
            ideal_slow_links.tiers[].host_rate_gbps
            ideal_slow_links.tiers[].links
            ideal_slow_links.tiers[].rate_gbps
            ideal_slow_links.tiers[].role
            inference
            inference[]
            inference[].beside
            inference[].beside.items
            inference[].beside.longest
            inference[].beside.longest_us
            inference[].completed
            inference[].e2e_us
            inference[].e2e_us.max
            inference[].e2e_us.p50
            inference[].e2e_us.p90
            inference[].e2e_us.p99
            inference[].ideal_e2e_us
            inference[].ideal_e2e_us.max
            inference[].ideal_e2e_us.p50
            inference[].ideal_e2e_us.p90
            inference[].ideal_e2e_us.p99
            inference[].network_wait_us
            inference[].network_wait_us.max
            inference[].network_wait_us.p50
            inference[].network_wait_us.p90
            inference[].network_wait_us.p99
            inference[].requests
            inference[].service
            inference[].tpot_us
            inference[].tpot_us.max
            inference[].tpot_us.p50
            inference[].tpot_us.p90
            inference[].tpot_us.p99
            inference[].ttft_us
            inference[].ttft_us.max
            inference[].ttft_us.p50
            inference[].ttft_us.p90
            inference[].ttft_us.p99
            inference[].with_first_token
            infiniband
            infiniband.becn_received
            infiniband.credit_stall_us
            infiniband.fecn_marked
            infiniband.flow_control_packets
            infiniband.virtual_lanes
            infiniband.virtual_lanes[]
            infiniband.virtual_lanes[].becn_received
            infiniband.virtual_lanes[].credit_stall_us
            infiniband.virtual_lanes[].fecn_marked
            infiniband.virtual_lanes[].flow_control_packets
            infiniband.virtual_lanes[].packets_forwarded
            infiniband.virtual_lanes[].peak_input_buffer_bytes
            infiniband.virtual_lanes[].vl
            infiniband.vl15_management_packets
            jobs
            jobs[]
            jobs[].beside
            jobs[].beside.items
            jobs[].beside.longest
            jobs[].beside.longest_us
            jobs[].collective_calls
            jobs[].completed
            jobs[].compute_us_per_iteration
            jobs[].exposed_comm_us_per_iteration
            jobs[].ideal_iteration_us
            jobs[].ideal_jct_us
            jobs[].ideal_per_iteration_us
            jobs[].idle_us_per_iteration
            jobs[].iteration_us
            jobs[].iterations
            jobs[].jct_us
            jobs[].job
            jobs[].late_entry_us_per_iteration
            jobs[].max_rank_network_wait_us_per_iteration
            jobs[].network_penalty_percent
            jobs[].network_penalty_us
            jobs[].network_wait_us_per_iteration
            jobs[].notes
            jobs[].notes[]
            jobs[].per_iteration_us
            jobs[].ranks
            jobs[].slowest_transfers
            jobs[].slowest_transfers[]
            jobs[].slowest_transfers[].bytes
            jobs[].slowest_transfers[].fct_us
            jobs[].slowest_transfers[].flow
            jobs[].slowest_transfers[].ideal_fct_us
            jobs[].slowest_transfers[].iteration
            jobs[].slowest_transfers[].name
            jobs[].warmup
            max_queue_bytes
            max_queue_port
            mode
            model
            not_modelled
            nvlink
            nvlink.bytes
            nvlink.note
            nvlink.transfers
            oversubscription
            oversubscription[]
            oversubscription[].bound_bytes
            oversubscription[].bound_capacity_gbps
            oversubscription[].bound_direction
            oversubscription[].bound_switch
            oversubscription[].bound_us
            oversubscription[].flows_us
            oversubscription[].host_link_bound_us
            oversubscription[].ratio_max
            oversubscription[].ratio_min
            oversubscription[].set_the_pace
            oversubscription[].switches
            oversubscription[].text
            oversubscription[].tier
            pfc_cycles
            pfc_cycles[]
            pfc_cycles[].cycle
            pfc_cycles[].held
            pfc_cycles[].held[]
            pfc_cycles[].held[].from_us
            pfc_cycles[].held[].to_us
            pfc_cycles[].held_us
            pfc_cycles[].queues
            pfc_cycles[].queues[]
            pfc_deadlock_cycle
            pfc_deadlock_cycle[]
            pfc_deadlock_since_us
            pfc_propagation
            pfc_propagation[]
            pfc_propagation[].device
            pfc_propagation[].first_xoff_us
            pfc_propagation[].hop
            pfc_propagation[].paused
            pfc_propagation[].paused_us
            pfc_propagation[].port
            pfc_propagation[].priority
            pfc_propagation[].root
            pfc_victim_count
            pfc_victims
            pfc_victims[]
            pfc_victims[].dst
            pfc_victims[].flow_id
            pfc_victims[].lost_us
            pfc_victims[].notifications_by_mark
            pfc_victims[].notifications_by_mark[]
            pfc_victims[].notifications_by_mark[].device
            pfc_victims[].notifications_by_mark[].held_by_pause
            pfc_victims[].notifications_by_mark[].not_apart
            pfc_victims[].notifications_by_mark[].notifications
            pfc_victims[].notifications_by_mark[].port
            pfc_victims[].notifications_by_mark[].waited_there
            pfc_victims[].other_roots
            pfc_victims[].other_roots[]
            pfc_victims[].other_roots[].root
            pfc_victims[].other_roots[].root_hops
            pfc_victims[].other_roots[].root_wait_us
            pfc_victims[].paused_wait_us
            pfc_victims[].rate_held_us
            pfc_victims[].root
            pfc_victims[].root_hops
            pfc_victims[].root_wait_us
            pfc_victims[].slowdown
            pfc_victims[].src
            pfc_victims[].victim_wait_us
            pfc_victims[].waited_at
            pfc_victims[].waited_at[]
            pfc_victims[].waited_at[].device
            pfc_victims[].waited_at[].packets
            pfc_victims[].waited_at[].paused_wait_us
            pfc_victims[].waited_at[].port
            pfc_victims[].waited_at[].victim_wait_us
            retry_failures
            retry_failures[]
            retry_failures[].at_us
            retry_failures[].cause
            retry_failures[].dst
            retry_failures[].each_link_reconnects
            retry_failures[].flows
            retry_failures[].flows[]
            retry_failures[].links
            retry_failures[].links[]
            retry_failures[].links[].a
            retry_failures[].links[].b
            retry_failures[].links[].down_since_us
            retry_failures[].links_unchanged_since_timer_started
            retry_failures[].queue_pair
            retry_failures[].src
            retry_failures[].timer_started_us
            scenario
            seed
            simulated_seconds
            stop_reason
            threads_note
            wall_seconds
            window_limited_qps
            """.strip().split("\\s+"));
    private static final Set<String> SET = Set.copyOf(ALL);

    private SummaryKeys() {}

    /** A key path as listed: each list index {@code [3]} written {@code []}. */
    static String listed(String name) {
        return name.replaceAll("\\[[0-9]+]", "[]");
    }

    /**
     * Whether a metric selector (a flattened name, or a prefix of names ending at a '.' or '[') can match something a
     * summary.json holds: it is a listed path, or a listed path starts with it followed by '.' or '['.
     */
    public static boolean known(String selector) {
        String s = listed(selector);
        if (SET.contains(s)) {
            return true;
        }
        for (String k : ALL) {
            if (k.startsWith(s) && (k.charAt(s.length()) == '.' || k.charAt(s.length()) == '[')) {
                return true;
            }
        }
        return false;
    }

    /** The listed paths nearest to a mistyped selector (at most 3, by edit distance, within a third of its length). */
    public static List<String> nearest(String selector) {
        String s = listed(selector);
        int best = Math.max(2, s.length() / 3) + 1;
        List<String> out = new ArrayList<>();
        for (String k : ALL) {
            int d = distance(s, k);
            if (d < best) {
                best = d;
                out.clear();
            }
            if (d == best && out.size() < 3) {
                out.add(k);
            }
        }
        return out;
    }

    private static int distance(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int same = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                cur[j] = Math.min(Math.min(cur[j - 1], prev[j]) + 1, prev[j - 1] + same);
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }
}
