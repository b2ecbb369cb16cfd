package dev.berth.job.hcl;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * What one jobspec block may hold, as Nomad's jobspec schema says (the {@code hcl} tags of its API structs): its labels,
 * its arguments with their types (and which are required), its nested blocks. A block or argument Nomad accepts but
 * Berth does not run carries the reason it is refused ({@link #refusals}); {@code anyArguments} is a map block
 * ({@code env}, {@code meta}) whose argument names are the user's; {@code anyBlocks} lets a driver's {@code config} hold
 * blocks of its own.
 */
record BlockSpec(String type, List<String> labels, Map<String, ArgType> arguments, Set<String> required, Map<String, BlockSpec> blocks,
                 Map<String, String> refusals, boolean anyArguments, boolean anyBlocks) {

    /** How a value must be shaped, checked where it is written as a literal. */
    enum ArgType { STRING, NUMBER, BOOL, DURATION, STRINGS, MAP, ANY }

    static BlockSpec block(String type, String... labels) {
        return new BlockSpec(type, List.of(labels), new LinkedHashMap<>(), new TreeSet<>(), new LinkedHashMap<>(), new LinkedHashMap<>(), false, false);
    }

    static BlockSpec map(String type) {
        return new BlockSpec(type, List.of(), new LinkedHashMap<>(), new TreeSet<>(), new LinkedHashMap<>(), new LinkedHashMap<>(), true, false);
    }

    /** A task driver's {@code config}: its arguments and nested blocks ({@code mount {}}, {@code logging {}}) are the driver's to judge. */
    static BlockSpec driverConfig() {
        return new BlockSpec("config", List.of(), new LinkedHashMap<>(), new TreeSet<>(), new LinkedHashMap<>(), new LinkedHashMap<>(), true, true);
    }

    BlockSpec args(ArgType type, String... names) {
        for (String n : names) {
            this.arguments.put(n, type);
        }
        return this;
    }

    BlockSpec require(String... names) {
        this.required.addAll(List.of(names));
        return this;
    }

    BlockSpec with(BlockSpec... children) {
        for (BlockSpec c : children) {
            this.blocks.put(c.type(), c);
        }
        return this;
    }

    /** Blocks or arguments Nomad accepts here that Berth does not run: refused, with why. */
    BlockSpec refuse(String reason, String... names) {
        for (String n : names) {
            this.refusals.put(n, reason);
        }
        return this;
    }
}
