package dev.berth.state;

import java.time.Instant;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Lob;
import jakarta.persistence.Table;

@Entity
@Table(name = "alloc")
class AllocEntity {

    @Id
    private String id;

    @Lob
    @Column(name = "spec_json", nullable = false)
    private String specJson;

    @Column(name = "modify_index", nullable = false)
    private long modifyIndex;

    @Column(name = "desired_status", nullable = false)
    private String desiredStatus;

    @Column(name = "client_status", nullable = false)
    private String clientStatus;

    @Column(name = "client_description", nullable = false)
    private String clientDescription;

    @Lob
    @Column(name = "doc_json")
    private String docJson;

    @Column(name = "updated_at", nullable = false)
    private Instant updatedAt;

    protected AllocEntity() {
    }

    AllocEntity(String id) {
        this.id = id;
    }

    void set(String specJson, long modifyIndex, String desiredStatus, String clientStatus, String clientDescription, Instant now) {
        this.specJson = specJson;
        this.modifyIndex = modifyIndex;
        this.desiredStatus = desiredStatus;
        this.clientStatus = clientStatus;
        this.clientDescription = clientDescription.length() > 255 ? clientDescription.substring(0, 255) : clientDescription;
        this.updatedAt = now;
    }

    String docJson() {
        return docJson;
    }

    void docJson(String json) {
        this.docJson = json;
    }

    String id() {
        return id;
    }

    String specJson() {
        return specJson;
    }

    String clientStatus() {
        return clientStatus;
    }

    String clientDescription() {
        return clientDescription;
    }
}
