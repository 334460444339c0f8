{{/*
Names and labels. Every object is <fullname>-<service>; fullname is the release name (or
fullnameOverride), so two releases in one namespace do not collide.
*/}}
{{- define "marketplace.fullname" -}}
{{- default .Release.Name .Values.fullnameOverride | trunc 40 | trimSuffix "-" -}}
{{- end -}}

{{- define "marketplace.name" -}}
{{- printf "%s-%s" (include "marketplace.fullname" .root) .service -}}
{{- end -}}

{{- define "marketplace.selectorLabels" -}}
app.kubernetes.io/name: {{ .root.Chart.Name }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .service }}
{{- end -}}

{{- define "marketplace.labels" -}}
{{ include "marketplace.selectorLabels" . }}
app.kubernetes.io/part-of: marketplace
app.kubernetes.io/version: {{ .root.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .root.Chart.Name .root.Chart.Version }}
{{- end -}}

{{/*
A service's values: serviceDefaults with its own block merged over them, map by map. (Sprig's
merge and mergeOverwrite treat false and 0 as unset, so `autoscaling.enabled: false` would lose.)
*/}}
{{- define "marketplace.merge" -}}
{{- $out := deepCopy .base -}}
{{- range $k, $v := .over -}}
{{- if and (kindIs "map" $v) (kindIs "map" (get $out $k)) -}}
{{- $_ := set $out $k (include "marketplace.merge" (dict "base" (get $out $k) "over" $v) | fromYaml) -}}
{{- else -}}
{{- $_ := set $out $k $v -}}
{{- end -}}
{{- end -}}
{{- toYaml $out -}}
{{- end -}}

{{- define "marketplace.service" -}}
{{- include "marketplace.merge" (dict "base" .root.Values.serviceDefaults "over" (index .root.Values.services .service)) -}}
{{- end -}}

{{/* The ingress (partner, provider) whose traffic a service serves, or "". */}}
{{- define "marketplace.publicIngress" -}}
{{- $by := dict "gateway-auth" "partner" "provider-delivery" "provider" "delivery-assignment" "partner" -}}
{{- $key := get $by .service -}}
{{- if and $key (get .root.Values.ingress $key).enabled -}}{{ $key }}{{- end -}}
{{- end -}}

{{/*
The plain settings of a service, as ConfigMap data: the platform's, then the service's own, then
what the chart derives (PORT, HOST, TRUST_PROXY, PUBLIC_BASE_URL or delivery-assignment's
PLATFORM_CALLBACK_BASE_URL, the other services' URLs).
*/}}
{{- define "marketplace.configData" -}}
{{- $svc := include "marketplace.service" . | fromYaml -}}
{{- $data := dict -}}
{{- range $k, $v := .root.Values.env }}{{ $_ := set $data $k (toString $v) }}{{ end -}}
{{- range $k, $v := $svc.env }}{{ $_ := set $data $k (toString $v) }}{{ end -}}
{{- /* listen on every interface of the pod, on the port the Service targets */ -}}
{{- $_ := set $data "HOST" "0.0.0.0" -}}
{{- $_ := set $data "PORT" (toString $svc.port) -}}
{{- $public := include "marketplace.publicIngress" . -}}
{{- /* behind the ingress: the client address is the one the controller put in X-Forwarded-For */ -}}
{{- $_ := set $data "TRUST_PROXY" (ternary "true" "false" (ne $public "")) -}}
{{- /* the public address of what the service serves behind the ingress, under the service's own name for it */ -}}
{{- $baseVariable := ternary "PLATFORM_CALLBACK_BASE_URL" "PUBLIC_BASE_URL" (eq .service "delivery-assignment") -}}
{{- if and $public (not (hasKey $data $baseVariable)) -}}
{{- $_ := set $data $baseVariable (printf "https://%s" (get .root.Values.ingress $public).host) -}}
{{- end -}}
{{- range $variable, $target := $svc.serviceUrls -}}
{{- $port := (index $.root.Values.services $target).port -}}
{{- $_ := set $data $variable (printf "http://%s:%v" (include "marketplace.name" (dict "root" $.root "service" $target)) $port) -}}
{{- end -}}
{{- toYaml $data -}}
{{- end -}}

{{/* Seconds the pod gets after the stop begins: the preStop pause + SHUTDOWN_TIMEOUT_MS + 5 s. */}}
{{- define "marketplace.terminationGrace" -}}
{{- $svc := include "marketplace.service" . | fromYaml -}}
{{- $ms := int (default (default "15000" .root.Values.env.SHUTDOWN_TIMEOUT_MS) $svc.env.SHUTDOWN_TIMEOUT_MS) -}}
{{- add $svc.preStopSleepSeconds (div (add $ms 999) 1000) 5 -}}
{{- end -}}

{{/* Startup probe failures allowed (every 5 s): STARTUP_TIMEOUT_MS plus 60 s for indexes and consumers. */}}
{{- define "marketplace.startupFailures" -}}
{{- $svc := include "marketplace.service" . | fromYaml -}}
{{- $ms := int (default (default "60000" .root.Values.env.STARTUP_TIMEOUT_MS) $svc.env.STARTUP_TIMEOUT_MS) -}}
{{- div (add $ms 60000 4999) 5000 -}}
{{- end -}}

{{/* The hardened container security context, the same for every container of the chart. */}}
{{- define "marketplace.containerSecurityContext" -}}
allowPrivilegeEscalation: false
readOnlyRootFilesystem: true
runAsNonRoot: true
capabilities:
  drop: [ALL]
seccompProfile:
  type: RuntimeDefault
{{- end -}}

{{- define "marketplace.podSecurityContext" -}}
runAsNonRoot: true
# the image's `node` user (deploy/Dockerfile); numeric, so runAsNonRoot can be verified
runAsUser: {{ .Values.runAsUser }}
runAsGroup: {{ .Values.runAsUser }}
seccompProfile:
  type: RuntimeDefault
{{- end -}}
