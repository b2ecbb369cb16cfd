package dev.berth.alloc;

import java.util.List;

import org.springframework.stereotype.Component;

import dev.berth.alloc.spec.VolumeSpec;
import dev.berth.alloc.store.AllocRecord;
import dev.berth.volume.VolumeClaims;

/** The allocations on this node that use a host volume: not client-terminal, with a group volume sourcing it. */
@Component
class AllocVolumeClaims implements VolumeClaims {

    private final AllocManager allocs;

    AllocVolumeClaims(AllocManager allocs) {
        this.allocs = allocs;
    }

    @Override
    public List<String> claimedBy(String name) {
        return allocs.list().stream().map(AllocView::record)
                .filter(r -> !r.terminal() && uses(r, name))
                .map(AllocRecord::id).sorted().toList();
    }

    private static boolean uses(AllocRecord record, String name) {
        return record.spec().group().map(g -> g.volumesOrEmpty().values().stream()
                .anyMatch(v -> VolumeSpec.HOST.equals(v.type()) && name.equals(v.source()))).orElse(false);
    }
}
