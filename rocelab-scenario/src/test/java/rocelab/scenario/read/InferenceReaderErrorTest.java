package rocelab.scenario.read;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rocelab.workload.inference.Arrivals;
import rocelab.workload.inference.RequestTemplate;

/** Bad inference services and request traces are reported at the file, line and column that cause them. */
class InferenceReaderErrorTest {
    private static final String HEAD = "name: t\nfabric: {mode: roce-lossy}\n"
            + "topology: {kind: single-switch, hosts: 8, link: {rate: 100Gbps}}\ninference:\n";
    private static final String MODEL = "model: {layers: 2, hidden: 64, heads: 4}";
    private static final String INSTANCES = "instances: [{role: prefill, hosts: 0}, {role: decode, hosts: 1}]";
    private static final String COST = "cost: {prefill-per-token: 1us, decode-step: 1ms}";
    private static final String POISSON = "arrivals: {process: poisson, rate: 10/s, count: 2}";
    private static final String REQUEST = "request: {steps: [{llm: {prompt-tokens: 10, output-tokens: 2}}]}";

    @TempDir
    Path dir;

    private String error(String service) {
        Throwable t = org.assertj.core.api.Assertions.catchThrowable(
                () -> new ScenarioReader().read(HEAD + service, "t.yaml", dir));
        assertThat(t).isInstanceOf(ScenarioException.class);
        return t.getMessage();
    }

    private static String service(String... parts) {
        return "  - {" + String.join(", ", parts) + "}\n";
    }

    @Test
    void shouldRejectUnknownAndMissingKeys() {
        assertThat(error(service(MODEL, INSTANCES, COST, POISSON, REQUEST, "gpus: 8")))
                .startsWith("t.yaml:5:" + (6 + String.join(", ", MODEL, INSTANCES, COST, POISSON, REQUEST).length() + 2)
                        + ": unknown key 'gpus' in inference service 1; expected one of: name, model, instances");
        assertThat(error(service(INSTANCES, COST, POISSON, REQUEST))).startsWith("t.yaml:5:5: missing key 'model'");
        assertThat(error(service("model: {layers: 2, hidden: 64, heads: 4, experts: 8}", INSTANCES, COST, POISSON,
                REQUEST))).startsWith("t.yaml:5:47: unknown key 'experts' in model");
        assertThat(error(service(MODEL, INSTANCES, COST, POISSON))).startsWith("t.yaml:5:5: missing key 'request'");
        assertThat(error(service("model: {layers: 2, hidden: 64, heads: 4, moe: {experts: 8, topk: 9}}", INSTANCES,
                COST, POISSON, REQUEST))).startsWith("t.yaml:5:71: topk 9 is out of range; expected a whole number in"
                        + " 1..8");
    }

    @Test
    void shouldRejectInstancesThatDoNotFit() {
        assertThat(error(service(MODEL, "instances: [{role: prefill, tp: 2, hosts: 0}, {role: decode, hosts: 1}]",
                COST, POISSON, REQUEST))).startsWith("t.yaml:5:90: 1 hosts are given for 1 instance of tp 2;"
                        + " expected 2 hosts");
        // At the second instance's hosts, its value's column: the line's index of it, plus one.
        String twice = service(MODEL, "instances: [{role: prefill, hosts: 0}, {role: decode, hosts: 0}]", COST,
                POISSON, REQUEST);
        assertThat(error(twice)).isEqualTo("t.yaml:5:" + (twice.lastIndexOf("hosts: 0") + 8) + ": host 0, given to"
                + " instance decode0, already serves instance prefill0 of inference service 'inference1'; expected"
                + " hosts that serve no other instance");
        String named = service("name: chat", MODEL, "instances: [{role: prefill, tp: 2, count: 2, hosts: 0-3},"
                + " {role: decode, tp: 2, hosts: \"3,4\"}]", COST, POISSON, REQUEST);
        assertThat(error(named)).isEqualTo("t.yaml:5:" + (named.indexOf("\"3,4\"") + 1) + ": host 3, given to"
                + " instance decode0, already serves instance prefill1 of inference service 'chat'; expected hosts"
                + " that serve no other instance");
        String noDecode = service(MODEL, "instances: [{role: prefill, hosts: 0}]", COST, POISSON, REQUEST);
        assertThat(error(noDecode)).isEqualTo("t.yaml:5:" + (noDecode.indexOf("[{role") + 1) + ": inference service"
                + " 'inference1' has no decode instance; expected at least one prefill and one decode instance, e.g."
                + " [{role: prefill, hosts: 0}, {role: decode, hosts: 1}]");
        assertThat(error(service(MODEL, "instances: [{role: router, hosts: 0}]", COST, POISSON, REQUEST)))
                .contains("'router' is not a role; expected one of: prefill, decode");
    }

    /** Instances whose tp differ, and a tp that does not shard the KV heads: at the value at fault. */
    @Test
    void shouldPointAtTheTpOrKvHeadsThatDoNotFitTheService() {
        String tp = service("name: chat", MODEL, "instances: [{role: prefill, tp: 2, hosts: 0-1}, {role: decode, tp: 4,"
                + " hosts: 2-5}]", COST, POISSON, REQUEST);
        assertThat(error(tp)).isEqualTo("t.yaml:5:" + (tp.indexOf("tp: 4") + 5) + ": tp 4 of instance decode0 differs"
                + " from tp 2 of instance prefill0 of inference service 'chat'; expected tp 2, as every instance of the"
                + " service has: the KV cache moves from rank i of the prefill instance to rank i of the decode"
                + " instance");
        // No tp given is tp 1: at the instance.
        String implicit = service(MODEL, "instances: [{role: prefill, tp: 2, hosts: 0-1}, {role: decode, hosts: 2}]",
                COST, POISSON, REQUEST);
        assertThat(error(implicit)).isEqualTo("t.yaml:5:" + (implicit.indexOf("{role: decode") + 1) + ": tp 1 of"
                + " instance decode0 differs from tp 2 of instance prefill0 of inference service 'inference1';"
                + " expected tp 2, as every instance of the service has: the KV cache moves from rank i of the prefill"
                + " instance to rank i of the decode instance");
        String kv = service("name: chat", "model: {layers: 2, hidden: 64, heads: 12, kv-heads: 4}",
                "instances: [{role: prefill, tp: 3, hosts: 0-2}, {role: decode, tp: 3, hosts: 3-5}]", COST, POISSON,
                REQUEST);
        assertThat(error(kv)).isEqualTo("t.yaml:5:" + (kv.indexOf("kv-heads: 4") + 11) + ": kv-heads 4 of inference"
                + " service 'chat' is not sharded evenly by its tp 3; expected kv-heads a multiple of tp (each rank"
                + " holds kv-heads/tp heads) or a divisor of it (each head on tp/kv-heads ranks) that divides heads 12:"
                + " 1, 3, 6 or 12");
        // kv-heads not given is heads: at heads.
        String heads = service("model: {layers: 2, hidden: 64, heads: 6}",
                "instances: [{role: prefill, tp: 4, hosts: 0-3}, {role: decode, tp: 4, hosts: 4-7}]", COST, POISSON,
                REQUEST);
        assertThat(error(heads)).isEqualTo("t.yaml:5:" + (heads.indexOf("heads: 6") + 8) + ": kv-heads 6 (heads, as"
                + " kv-heads is not given) of inference service 'inference1' is not sharded evenly by its tp 4;"
                + " expected kv-heads a multiple of tp (each rank holds kv-heads/tp heads) or a divisor of it (each"
                + " head on tp/kv-heads ranks) that divides heads 6: 1 or 2");
    }

    @Test
    void shouldRejectBadArrivalsAndRequests() {
        assertThat(error(service(MODEL, INSTANCES, COST, "arrivals: {process: poisson, rate: fast, count: 2}",
                REQUEST))).contains("rate 'fast' is not a number of requests per second; expected e.g. 20/s");
        assertThat(error(service(MODEL, INSTANCES, COST, "arrivals: {process: poisson, rate: 5/s}", REQUEST)))
                .contains("Poisson arrivals need a duration or a count");
        assertThat(error(service(MODEL, INSTANCES, COST, "arrivals: {process: poisson, rate: 1000000/s, duration: 10s}",
                REQUEST))).contains("rate x duration makes about 10000000 requests; expected at most 1000000");
        String huge = service("model: {layers: 100000, hidden: 16000000, heads: 4}", INSTANCES, COST, POISSON,
                "request: {steps: [{llm: {prompt-tokens: 1000000000, output-tokens: 2}}]}");
        assertThat(error(huge)).isEqualTo("t.yaml:5:" + (huge.indexOf("{layers") + 1) + ": the model of inference"
                + " service 'inference1' makes the KV cache or the AllReduce of its longest prompt (1000000000 tokens)"
                + " more than 2^63 bytes; expected a smaller model or shorter prompts");
        assertThat(error(service(MODEL, INSTANCES, COST, POISSON,
                "request: {steps: [{llm: {new-tokens: 10, output-tokens: 2}}]}")))
                .contains("the first llm step has no context to reuse; expected prompt-tokens");
        assertThat(error(service(MODEL, INSTANCES, COST, POISSON,
                "request: {ingress: 1KB, steps: [{llm: {prompt-tokens: 10, output-tokens: 2}}]}")))
                .isEqualTo("t.yaml:5:5: inference service 'inference1' has no gateway, yet its requests move bytes"
                        + " through one (request ingress, egress or a tool call's bytes); expected gateway: HOST, a host"
                        + " that serves no instance");
        assertThat(error(service(MODEL, INSTANCES, COST, POISSON,
                "request: {steps: [{tool: {latency: 1ms}}]}"))).contains("the request has no llm step");
        assertThat(error(service(MODEL, INSTANCES, COST, POISSON,
                "request: {steps: [{llm: {prompt-tokens: 10, output-tokens: 2}, tool: {latency: 1ms}}]}")))
                .contains("expected exactly one of llm or tool");
        String gateway = service("name: chat", MODEL, INSTANCES, COST, POISSON, REQUEST, "gateway: 1");
        assertThat(error(gateway)).isEqualTo("t.yaml:5:" + (gateway.indexOf("gateway: 1") + 10) + ": gateway 1 of"
                + " inference service 'chat' also serves its instance decode0; expected a host that serves no instance"
                + " (requests enter and leave the service through it)");
    }

    @Test
    void shouldReportTraceFileLineAndColumn() throws Exception {
        String yaml = service("name: s", MODEL, INSTANCES, COST, "arrivals: {trace: req.csv}");
        Files.writeString(dir.resolve("req.csv"), "arrival_ns,prompt_tokens,output_tokens\n0,100,5\n1000,1x,5\n");
        assertThat(error(yaml)).isEqualTo("req.csv:3:6: prompt_tokens '1x' is not a whole number; expected a whole"
                + " number of tokens in 1..1073741824");
        Files.writeString(dir.resolve("req.csv"), "arrival_ns,prompt_tokens,output_tokens\n-5,100,5\n");
        assertThat(error(yaml)).isEqualTo("req.csv:2:1: arrival_ns -5 is negative; expected a whole number of"
                + " nanoseconds >= 0 (no unit)");
        Files.writeString(dir.resolve("req.csv"), "arrival_ns,prompt_tokens,output_tokens\n0,-3,5\n");
        assertThat(error(yaml)).isEqualTo("req.csv:2:3: prompt_tokens -3 is too small; expected a whole number of"
                + " tokens in 1..1073741824");
        Files.writeString(dir.resolve("req.csv"), "arrival_us,prompt,output\n");
        assertThat(error(yaml)).isEqualTo("req.csv:1:1: the header is 'arrival_us,prompt,output'; expected the header"
                + " arrival_ns,prompt_tokens,output_tokens");
        Files.writeString(dir.resolve("req.csv"), "arrival_ns,prompt_tokens,output_tokens\n\n5,10\n");
        assertThat(error(yaml)).isEqualTo("req.csv:3:5: the row has 2 fields; expected 3 fields:"
                + " arrival_ns,prompt_tokens,output_tokens");
        Files.writeString(dir.resolve("req.csv"), "arrival_ns,prompt_tokens,output_tokens\n5,10,0\n");
        assertThat(error(yaml)).isEqualTo("req.csv:2:6: output_tokens 0 is out of range; expected a whole number of"
                + " tokens in 1..1073741824");
        Files.writeString(dir.resolve("req.csv"), "arrival_ns,prompt_tokens,output_tokens\n");
        assertThat(error(yaml)).startsWith("req.csv:2:1: the trace has no requests");
        Files.delete(dir.resolve("req.csv"));
        assertThat(error(yaml)).startsWith("t.yaml:5:191: file not found: ");
    }

    @Test
    void shouldReadATraceWithoutARequestTemplateAsOneCallPerRow() throws Exception {
        Files.writeString(dir.resolve("req.csv"), "arrival_ns,prompt_tokens,output_tokens\n2000,100,5\n1000,30,2\n");
        var c = new ScenarioReader().read(HEAD + service(MODEL, INSTANCES, COST, "arrivals: {trace: req.csv}"),
                "t.yaml", dir);
        var s = c.inference().get(0);
        assertThat(s.name()).isEqualTo("inference1");
        assertThat(s.arrivals().draw(null)).containsExactly(new Arrivals.Arrival(1_000_000, 30, 2),
                new Arrivals.Arrival(2_000_000, 100, 5));
        assertThat(s.request().steps()).containsExactly(new RequestTemplate.LlmCall(1, false, 1));
        assertThat(s.prefill().get(0).name()).isEqualTo("prefill0");
        assertThat(s.model().moe()).isFalse();
        var moe = new ScenarioReader().read(HEAD + service("model: {layers: 2, hidden: 64, heads: 4, moe: {experts: 8,"
                + " topk: 2}}", INSTANCES, COST, POISSON, REQUEST), "t.yaml", dir);
        assertThat(moe.inference().get(0).model().topk()).isEqualTo(2);
    }

    /** A GPU pass takes time: a cost of 0 would make a token in no time (a TPOT of 0). */
    @Test
    void shouldRejectCostsThatAreNotPositive() {
        String step = service(MODEL, INSTANCES, "cost: {prefill-per-token: 1us, decode-step: 0us}", POISSON, REQUEST);
        assertThat(error(step)).isEqualTo("t.yaml:5:" + (step.indexOf("0us") + 1) + ": decode-step '0us' is not"
                + " positive; expected the time of one decode step above 0, e.g. 25ms");
        String prefill = service(MODEL, INSTANCES, "cost: {prefill-per-token: 0s, decode-step: 1ms}", POISSON,
                REQUEST);
        assertThat(error(prefill)).isEqualTo("t.yaml:5:" + (prefill.indexOf("0s,") + 1) + ": prefill-per-token '0s'"
                + " is not positive; expected the time per prompt token above 0, e.g. 45us");
    }

    /** A call longer than 2^61 ps: at the cost that makes it so. */
    @Test
    void shouldPointAtTheCostThatMakesACallTooLong() {
        String prefill = service(MODEL, INSTANCES, "cost: {prefill-per-token: 300000s, decode-step: 1ms}", POISSON,
                REQUEST);
        assertThat(error(prefill)).isEqualTo("t.yaml:5:" + (prefill.indexOf("300000s") + 1) + ": prefill-per-token"
                + " '300000s' makes the prefill of the longest prompt of inference service 'inference1' (10 tokens)"
                + " longer than 2^61 ps (about 26 days); expected prefill-per-token x 10 at most 2^61 ps");
        String decode = service(MODEL, INSTANCES, "cost: {prefill-per-token: 1us, decode-step: 2000000s}", POISSON,
                REQUEST);
        assertThat(error(decode)).isEqualTo("t.yaml:5:" + (decode.indexOf("2000000s") + 1) + ": decode-step"
                + " '2000000s' makes the decode of the longest answer of inference service 'inference1' (2 tokens)"
                + " longer than 2^61 ps (about 26 days); expected decode-step x 2 at most 2^61 ps");
    }
}
