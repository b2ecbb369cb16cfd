{{/* Chart name, truncated to the 63 characters Kubernetes names allow. */}}
{{- define "berth.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Full name: release-chart unless the release name already contains the chart name. */}}
{{- define "berth.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "berth.selectorLabels" -}}
app.kubernetes.io/name: {{ include "berth.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{- define "berth.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{ include "berth.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end }}

{{- define "berth.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "berth.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{/* The Secret holding the ACL token(s): the operator's own, or the one this chart creates. */}}
{{- define "berth.secretName" -}}
{{- default (printf "%s-acl" (include "berth.fullname" .)) .Values.acl.existingSecret }}
{{- end }}

{{/* The agent's application.yml: chart-managed keys, then .Values.extraConfig merged over them. */}}
{{- define "berth.applicationYaml" -}}
{{- $c := .Values.config -}}
{{- $base := dict
  "berth" (dict
    "data-dir" "/var/lib/berth"
    "datacenter" $c.datacenter
    "node-class" $c.nodeClass
    "meta" $c.meta
    "telemetry" (dict
      "collection-interval" $c.telemetry.collectionInterval
      "publish-allocation-metrics" $c.telemetry.publishAllocationMetrics
      "allocation-labels" $c.telemetry.allocationLabels)
    "metrics" (dict "naming" $c.metrics.naming)
    "drivers" (dict
      "raw-exec" (dict "enabled" $c.drivers.rawExec)
      "exec" (dict "enabled" $c.drivers.exec)
      "docker" (dict "enabled" $c.drivers.docker))
    "acl" (dict
      "enabled" true
      "anonymous-metrics" .Values.acl.anonymousMetrics)
    "client" (dict
      "max-kill-timeout" $c.client.maxKillTimeout
      "min-dynamic-port" $c.client.minDynamicPort
      "max-dynamic-port" $c.client.maxDynamicPort))
  "server" (dict
    "address" "0.0.0.0"
    "port" .Values.port)
  "management" (dict
    "endpoint" (dict "health" (dict "probes" (dict "enabled" true)))) -}}
{{- toYaml (mergeOverwrite $base (deepCopy .Values.extraConfig)) }}
{{- end }}
