// Generated: the integration domains of Home Assistant core (the folders of homeassistant/components), from its
// homeassistant/generated/integrations.json (integrations and helpers, virtual brands left out), its .core_files.yaml
// (entity platforms and core components) and the system integrations that file does not list, plus a few
// removed ones older configurations still carry (discovery, updater, life360...). Regenerate by the same recipe
// when Home Assistant adds integrations; a section not in it is reported as unknown (a typo), not ignored.

/** Every Home Assistant integration domain, space-separated, in name order. */
export const HA_DOMAINS_TEXT =
  'abode acaia accuweather acmeda actiontec actron_air adax adguard ads advantage_air aemet aftership  ' +
  'agent_dvr ai_task aidot air_quality airgradient airly airnow airobot airos airpatrol airq airthings  ' +
  'airthings_ble airtouch4 airtouch5 airvisual airvisual_pro airzone airzone_cloud aladdin_connect  ' +
  'alarm_control_panel alarmdecoder alert alexa alexa_devices almond alpha_vantage altruist amazon_polly  ' +
  'amberelectric ambient_network ambient_station amcrest analytics analytics_insights android_ip_webcam  ' +
  'androidtv androidtv_remote anel_pwrctrl anglian_water anova anthemav anthropic aosmith apache_kafka apcupsd  ' +
  'api apple_tv application_credentials apprise aprilaire aprs apsystems aquacell aqualogic aquostv aqvify  ' +
  'aranet arcam_fmj arest arris_tg2492lg aruba arve arwn aseko_pool_live assist_pipeline assist_satellite  ' +
  'asuswrt atag atome august aurora aurora_abb_powerone aussie_broadband autarco auth automation autoskope  ' +
  'avea awair aws aws_s3 axis azure_data_explorer azure_devops azure_event_hub azure_service_bus azure_storage  ' +
  'backblaze_b2 backup baf baidu balboa bang_olufsen bayesian bbox binary_sensor bitcoin bizkaibus blackbird  ' +
  'blebox blink blockchain blue_current bluemaestro blueprint bluesound bluetooth bluetooth_adapters  ' +
  'bluetooth_le_tracker bond bosch_alarm bosch_shc brands braviatv bring broadlink brother brottsplatskartan  ' +
  'browser brunt bryant_evolution bsblan bt_home_hub_5 bt_smarthub bthome buienradar button caldav calendar  ' +
  'cambridge_audio camera canary casper_glow cast ccm15 centriconnect cert_expiry chacon_dio channels chef_iq  ' +
  'chess_com cielo_home cisco_ios cisco_mobility_express cisco_webex_teams citybikes clickatell clicksend  ' +
  'clicksend_tts climate cloud cloudflare cloudflare_r2 cmus co2signal coinbase color_extractor  ' +
  'comed_hourly_pricing comelit comfoconnect command_line compensation compit concord232 config configurator  ' +
  'control4 conversation cookidoo coolmaster counter cover cppm_tracker cpuspeed crownstone currencylayer cync  ' +
  'daikin danfoss_air darksky data_grand_lyon datadog date datetime ddwrt deako debugpy deconz decora_wifi  ' +
  'default_config delijn deluge demo denon denon_rs232 denonavr derivative devialet device_automation  ' +
  'device_sun_light_trigger device_tracker devolo_home_control devolo_home_network dexcom dhcp diagnostics  ' +
  'dialogflow digital_ocean directv discogs discord discovergy discovery dlink dlna_dmr dlna_dms dnsip doods  ' +
  'doorbird dormakaba_dkey downloader dremel_3d_printer drop_connect dropbox droplet dsmr dsmr_reader  ' +
  'dublin_bus_transport duckdns duco dunehd duotecno dwd_weather_warnings dynalite eafm earn_e_p1 easyenergy  ' +
  'ebox ebusd ecoal_boiler ecobee ecoforest econet ecovacs ecowitt edifier_infrared edimax edl21 efergy  ' +
  'egardia egauge eheimdigital ekeybionyx electrasmart electric_kiwi elevenlabs elgato elkm1 elmax elv elvia  ' +
  'emby emoncms emoncms_history emonitor emulated_hue emulated_kasa emulated_roku energenie_power_sockets  ' +
  'energieleser energy energyid energyzero enigma2 enocean enphase_envoy entur_public_transport  ' +
  'envertech_evt800 environment_canada envisalink ephember epic_games_store epion epson eq3btsmart escea  ' +
  'esphome essent etherscan eufy eufylife_ble eurotronic_cometblue event everlights evil_genius_labs evohome  ' +
  'ezviz faa_delays facebook fail2ban familyhub fan fastdotcom feedreader ffmpeg ffmpeg_motion ffmpeg_noise  ' +
  'fibaro fido file file_upload filesize filter fing fints firefly_iii fireservicerota firmata fish_audio  ' +
  'fitbit fivem fixer fjaraskupan fleetgo flexit flexit_bacnet flic flipr flo flock flume fluss flux flux_led  ' +
  'folder folder_watcher foobot forecast_solar forked_daapd fortios foscam foursquare free_mobile freebox  ' +
  'freedns freedompro freshr fressnapf_tracker fritz fritzbox fritzbox_callmonitor fronius frontend  ' +
  'frontier_silicon fuelprices_dk fujitsu_fglair fully_kiosk fumis futurenow fyta garadget garages_amsterdam  ' +
  'gardena_bluetooth gatus gc100 gdacs generic generic_hygrostat generic_thermostat geniushub gentex_homelink  ' +
  'geo_json_events geo_location geo_rss_events geocaching geofency geonetnz_quakes geonetnz_volcano ghost gios  ' +
  'github gitlab_ci glances go2rtc goalzero gogogate2 goodwe google google_air_quality google_assistant  ' +
  'google_assistant_sdk google_cloud google_drive google_generative_ai_conversation google_health google_mail  ' +
  'google_maps google_photos google_pubsub google_sheets google_tasks google_translate google_travel_time  ' +
  'google_weather google_wifi govee_ble govee_light_local gpsd gpslogger graphite gree green_planet_energy  ' +
  'greencell greeneye_monitor group growatt_server gtfs guardian guntamatic habitica hanna harbor hardkernel  ' +
  'hardware harman_kardon_avr harman_luxury harmony hassio haveibeenpwned hddtemp hdfury hdmi_cec heatmiser  ' +
  'hegel helty heos here_travel_time hikvision hikvisioncam hinen_power hisense_aehw4a1 history history_stats  ' +
  'hitron_coda hive hko hlk_sw16 holiday home_connect homeassistant homeassistant_alerts  ' +
  'homeassistant_connect_zbt2 homeassistant_green homeassistant_hardware homeassistant_sky_connect  ' +
  'homeassistant_yellow homee homekit homekit_controller homematic homematicip_cloud homevolt homewizard  ' +
  'homeworks honeywell honeywell_string_lights horizon hp_ilo hr_energy_qube html5 http huawei_lte hue hue_ble  ' +
  'huisbaasje humidifier hunterdouglas_powerview husqvarna_automower husqvarna_automower_ble huum  ' +
  'hvv_departures hydrawise hyperion hypontech ialarm iammeter iaqualink ibeacon icloud idasen_desk idrive_e2  ' +
  'idteck_prox ifttt iglo igloohome ign_sismologia ihc image image_processing image_upload imap imeon_inverter  ' +
  'imgw_pib immich imou improv_ble incomfort indevolt inels influxdb inkbird input_boolean input_button  ' +
  'input_datetime input_number input_select input_text insteon integration intelliclima intellifire intent  ' +
  'intent_script intesishome introduction iometer ios iotawatt iotty iperf3 ipma ipp iqvia  ' +
  'irish_rail_transport irm_kmi iron_os iskra islamic_prayer_times israel_rail iss ista_ecotrend isy994 itach  ' +
  'itunes ituran izone jellyfin jewish_calendar joaoapps_join justnimbus jvc_projector kaiterra kaleidescape  ' +
  'kankun karakeep keba keenetic_ndms2 kef kegtron keyboard_remote keymitt_ble kiosker kira kitchen_sink kiwi  ' +
  'klik_aan_klik_uit kmtronic knocki knx kodi kostal_plenticore kraken kulersky kwb labs lacrosse  ' +
  'lacrosse_view lamarzocco lametric landisgyr_heat_meter lannouncer lastfm launch_library laundrify  ' +
  'lawn_mower lcn ld2410_ble leaone led_ble led_infrared lektrico letpot lg_infrared lg_netcast lg_soundbar  ' +
  'lg_thinq lg_tv_rs232 libre_hardware_monitor lichess lidarr liebherr life360 lifx lifx_cloud light lightwave  ' +
  'limitlessled linkplay linksys_smart linode linux_battery litejet litellm litterrobot livisi llama_cpp  ' +
  'llamalab_automate local_calendar local_file local_ip local_todo locative lock logbook logger lojack  ' +
  'london_air london_underground lookin loqed lovelace luci luftdaten lunatone lupusec lutron lutron_caseta  ' +
  'lw12wifi lyngdorf lyric madvr mailgun manual manual_mqtt map marantz_infrared marytts mastodon matrix  ' +
  'matter maxcube mcp mcp_server mealie meater medcom_ble media_extractor media_player media_source mediaroom  ' +
  'melcloud melcloud_home melissa melnor meraki message_bird met met_eireann meteo_france meteo_lt meteoalarm  ' +
  'meteoclimatic metoffice mfi microbees microsoft midea miele mikrotik mill min_max minecraft_server minio  ' +
  'mitsubishi_comfort mjpeg moat mobile_app mochad modbus modem_callerid modern_forms moehlenhoff_alpha2  ' +
  'mold_indicator monarch_money monoprice monzo moon mopeka motion_blinds motionblinds_ble motioneye  ' +
  'motionmount mpd mqtt mqtt_eventstream mqtt_json mqtt_room mqtt_statestream msteams mta mullvad  ' +
  'music_assistant mutesync mvglive my myneomitis mysensors mystrom mythicbeastsdns myuplink nad nam  ' +
  'namecheapdns nanoleaf nasweb neato nederlandse_spoorwegen neopool ness_alarm nest netatmo netdata netgear  ' +
  'netgear_lte netio network neurio_energy nexia nextbus nextcloud nextdns nfandroidtv nibe_heatpump nice_go  ' +
  'nightscout niko_home_control nilu nina nintendo_parental_controls nissan_leaf nmap_tracker nmbs no_ip  ' +
  'noaa_tides nobo_hub nordpool norway_air notify notify_events notion novy_cooker_hood nrgkick  ' +
  'nsw_fuel_station nsw_rural_fire_service_feed ntfy nuheat nuki numato number nut nws nx584 nyt_games nzbget  ' +
  'oasa_telematics obihai octoprint oem ohmconnect ohme ollama ombi omie omnilogic onboarding ondilo_ico  ' +
  'onedrive onedrive_for_business onewire onkyo onvif open_meteo open_router openai_conversation  ' +
  'openalpr_cloud opendisplay openerz openevse openexchangerates opengarage openhardwaremonitor openhome  ' +
  'openrgb opensensemap opensky opentherm_gw openuv openweathermap opnsense opower opple oralb oru orvibo  ' +
  'osoenergy osramlightify otbr otp ouman_eh_800 ourgroceries overkiz overseerr ovhcloud_ai_endpoints  ' +
  'ovo_energy owntracks p1_monitor paj_gps palazzetti panasonic_bluray panasonic_viera panel_custom  ' +
  'panel_iframe paperless_ngx peblar peco pegel_online pencom permobil persistent_notification person pglab  ' +
  'philips_js pi_hole picnic picotts pilight ping pioneer pjlink plaato plant playstation_network plex  ' +
  'plugwise pocketcasts point pooldose poolsense portainer powerfox powerfox_local powerwall prana  ' +
  'private_ble_device probe_plus profiler progettihwsw proliphix prometheus prosegur prowl proximity proxmoxve  ' +
  'proxy prusalink ps4 ptdevices pterodactyl pulseaudio_loopback pure_energie purpleair push pushbullet  ' +
  'pushover pushsafer pvoutput pvpc_hourly_pricing pyload python_script qbittorrent qbus qingping qld_bushfire  ' +
  'qnap qnap_qsw qrcode quantum_gateway qvr_pro qwikswitch rabbitair rachio radarr radio_browser radiotherm  ' +
  'rainbird raincloud rainforest_eagle rainforest_raven rainmachine random rapt_ble raspberry_pi raspyrfm rdw  ' +
  'recollect_waste recorder recovery_mode recswitch reddit redgtech refoss rehlko rejseplanen  ' +
  'remember_the_milk remote remote_calendar remote_rpi_gpio renault renson reolink repairs repetier rest  ' +
  'rest_command rflink rfxtrx rhasspy ridwell ring ripple risco rituals_perfume_genie rmvtransport roborock  ' +
  'rocketchat roku romy roomba roon route53 route_b_smart_meter rova rpi_power rss_feed_template rtorrent  ' +
  'ruckus_unleashed russound_rio russound_rnet ruuvi_gateway ruuvitag_ble rympro sabnzbd saj samsung_infrared  ' +
  'samsungtv sanix satel_integra saunum scene schedule schlage schluter scorpiontrack scrape screenlogic  ' +
  'script search season select sendgrid sense sensibo sensirion_ble sensor sensorpro sensorpush  ' +
  'sensorpush_cloud sensoterra sentry senz serial serial_pm sesame seven_segments seventeentrack sfr_box  ' +
  'sftp_storage sharkiq shell_command shelly shodan shopping_list sia sigfox sighthound signal_messenger  ' +
  'simplefin simplepush simplisafe sinch siren sisyphus sky_hub sky_remote skybeacon skybell slack  ' +
  'sleep_as_android sleepiq slide slide_local slimproto sma smappee smarla smart_meter_texas smartthings  ' +
  'smarttub smarty smhi smlight smtp snapcast snmp snoo snooz solaredge solaredge_local solarlog solarman  ' +
  'solax soma somfy_mylink sonarr songpal sonos sony_projector soundtouch spaceapi spc speedtestdotnet splunk  ' +
  'spotify sql squeezebox srp_energy ssdp starline starlingbank starlink startca statistics statsd  ' +
  'steam_online steamist stiebel_eltron stookwijzer stream streamlabswater stt subaru suez_water sun  ' +
  'sunricher_dali sunweg supervisord supla surepetcare swiss_hydrological_data swiss_public_transport swisscom  ' +
  'switch switch_as_x switchbee switchbot switchbot_cloud switcher_kis switchmate syncthing syncthru  ' +
  'synology_chat synology_dsm synology_srm syslog system_bridge system_health system_log systemmonitor  ' +
  'systemnexa2 tado tag tailscale tailwind tami4 tank_utility tankerkoenig tapsaff tasmota tautulli tcp  ' +
  'technove ted5000 tedee telegram telegram_bot teleinfo tellduslive tellstick telnet teltonika temper  ' +
  'template tesla_fleet tesla_wall_connector teslemetry tessie text thermobeacon thermopro thethingsnetwork  ' +
  'thingspeak thinkingcleaner thomson thread threshold tibber tile tilt_ble tilt_pi time time_date timer tmb  ' +
  'tod todo todoist togrill tolo tomato tomorrowio toon torque totalconnect touchline touchline_sl tplink  ' +
  'tplink_lte tplink_omada traccar traccar_server trace tractive tradfri trafikverket_camera  ' +
  'trafikverket_ferry trafikverket_train trafikverket_weatherstation trane transmission transport_nsw travisci  ' +
  'trend triggercmd trmnl tts tuya twentemilieu twilio twilio_call twilio_sms twinkly twitch twitter ubus uhoo  ' +
  'uk_transport ukraine_alarm unifi unifi_access unifi_direct unifiprotect universal upb upc_connect upcloud  ' +
  'update updater upnp uptime uptime_kuma uptimerobot usage_prediction usb usgs_earthquakes_feed utility_meter  ' +
  'uvc v2c vacuum vallox valve vasttrafik vegehub velbus velux venstar vera verisure versasense version vesync  ' +
  'viaggiatreno vicare victron_ble victron_gx victron_remote_monitoring vilfo vistapool vivotek vizio vlc  ' +
  'vlc_telnet vodafone_station voicerss voip volkszaehler volumio volvo volvooncall w800rf32 wake_on_lan  ' +
  'wake_word wallbox waqi water_heater waterfurnace watergate watts watttime wattwaechter waze_travel_time  ' +
  'weather weatherflow weatherflow_cloud weatherkit web_rtc webdav webhook webmin webostv websocket_api weheat  ' +
  'wemo whirlpool whois wiffi wiim wilight wirelesstag withings wiz wled wmspro wolflink workday worldclock  ' +
  'worldtidesinfo worxlandroid ws66i wsdot wyoming x10 xbox xeoma xiaomi xiaomi_aqara xiaomi_ble xiaomi_miio  ' +
  'xiaomi_tv xmpp xs1 xthings_cloud yale yale_smart_alarm yalexs_ble yamaha yamaha_musiccast yandex_transport  ' +
  'yandextts yardian yeelight yeelightsunflower yi yolink yoto youless youtube yr zabbix zamg zengge zeroconf  ' +
  'zerproc zestimate zeversolar zha zhong_hong ziggo_mediabox_xl zimi zinvolt zodiac zone zoneminder zwave_js  ' +
  'zwave_me';
